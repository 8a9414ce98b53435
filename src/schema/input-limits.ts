// The size limit of every string and JSON argument is declared where the argument (or input field)
// is declared: `model: t.string({ ...inputLimit(INPUT_LIMITS.name) })`. The check that enforces
// them before an operation runs (src/server/input-limits.ts) reads them from the built schema's
// extensions, so a limit belongs to one argument of one field, never to every argument that
// happens to share its name. Limits are documented in docs/production.md.
//
// An argument without a declared limit gets the default of its type (`defaultInputLimit`). Inside
// an event (an input type declared `sizedAsEvent`) the default is none: the write validation
// (src/services/event-input.ts) counts the event's content, parts and arguments towards
// MAX_EVENT_BYTES as a whole.
import { MAX_IDEMPOTENCY_KEY_CHARS } from "../services/idempotency.js";
import { MAX_QUERY_LENGTH } from "../services/search.js";

/** Characters (strings) or serialized bytes (JSON) of the limits the schema declares. */
export const INPUT_LIMITS = {
  /** Every ID argument, unless it declares another: ours are 26-30 characters. */
  id: 100,
  /** Page cursors (after, before), declared for every connection in builder.ts. */
  cursor: 100,
  idempotencyKey: MAX_IDEMPOTENCY_KEY_CHARS,
  /** Model names, tool names and tool call ids. */
  name: 200,
  title: 1_000,
  /** search(query:), as the search decides it. */
  searchQuery: MAX_QUERY_LENGTH,
  /** A metadata object, serialized. */
  metadata: 64 * 1024,
} as const;

const LIMIT_KEY = "inputLimit";
const SIZED_AS_EVENT_KEY = "sizedAsEvent";

/** Options (spread into an argument's or input field's) declaring its size limit. */
export const inputLimit = (limit: number) => ({ extensions: { [LIMIT_KEY]: limit } });

/** Options (spread into an input type's) saying its values are sized as one event, as a whole. */
export const sizedAsEvent = { extensions: { [SIZED_AS_EVENT_KEY]: true } } as const;

type Extensions = Readonly<Record<string, unknown>> | null | undefined;

/** The limit an argument or input field declares, if it does. */
export const declaredInputLimit = (extensions: Extensions): number | undefined => {
  const limit = extensions?.[LIMIT_KEY];
  return typeof limit === "number" ? limit : undefined;
};

/** Whether an input type's values are sized as one event (their own fields have no default limit). */
export const isSizedAsEvent = (extensions: Extensions) => extensions?.[SIZED_AS_EVENT_KEY] === true;

/**
 * The limit of a value of `typeName` whose argument declares none: an ID's, and for any other
 * string or JSON value as much as one event (`eventBytes`, MAX_EVENT_BYTES) — or none inside an
 * event, which is sized as a whole.
 */
export function defaultInputLimit(typeName: string, inEvent: boolean, eventBytes: number): number | null {
  if (typeName === "ID") return INPUT_LIMITS.id;
  return inEvent ? null : eventBytes;
}
