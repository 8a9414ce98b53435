// The bodies of POST /v1/conversations (`items`, `metadata`) and of its update (`metadata`), as the
// API checks them: metadata is at most 16 string pairs, and any other parameter is refused by name.
import { z } from "zod";
import { InvalidRequest } from "./invalid-request.js";
import { paramName } from "./create-request.js";

const metadataSchema = z
  .record(z.string().max(64), z.string().max(512))
  .refine((value) => Object.keys(value).length <= 16, "at most 16 metadata keys");

const createSchema = z.strictObject({ items: z.array(z.unknown()).nullish(), metadata: metadataSchema.nullish() });
const updateSchema = z.strictObject({ metadata: metadataSchema.nullish() });

export function parseConversationBody(raw: unknown, { itemsAllowed }: { itemsAllowed: boolean }) {
  const parsed = (itemsAllowed ? createSchema : updateSchema).safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
    if (keys.length) throw new InvalidRequest(`Unknown parameter: '${keys[0]}'.`, keys[0]!);
    const param = paramName(issue.path);
    throw new InvalidRequest(param ? `Invalid '${param}': ${issue.message}` : issue.message, param || null);
  }
  return parsed.data as { items?: unknown[] | null; metadata?: Record<string, string> | null };
}
