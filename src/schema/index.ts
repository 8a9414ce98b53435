// The schema is the sum of the type files; importing them registers their types and fields.
import { lexicographicSortSchema } from "graphql";
import { builder } from "./builder.js";
import "./errors.js";
import "./history-event.js";
import "./history-connection.js";
import "./dialog.js";
import "./dialog-context.js";
import "./response.js";
import "./response-lifecycle.js";
import "./history-delta.js";
import "./in-flight-text.js";
import "./messages.js";
import "./search.js";
import "./dialog-list.js";
import "./branches.js";
import "./generation.js";
import "./tool-approvals.js";
import "./usage.js";
import "./budget.js";
import "./import-chats.js";
import "./share-link.js";

export const schema = lexicographicSortSchema(builder.toSchema());
