// What PostgreSQL can store: text and jsonb refuse the NUL character, jsonb refuses an unpaired
// UTF-16 surrogate, and its parser gives up on very deep nesting. Checked before a write
// (src/server/storable-text.ts for GraphQL operations, the REST endpoint for its parameters).
// A NUL, a high surrogate not followed by a low one, or a low one not preceded by a high one.
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorableText = (text: string) => !UNSTORABLE.test(text);

/** Far deeper than any real metadata or tool arguments, far shallower than jsonb's limit. */
export const MAX_NESTING = 64;

export interface Problem {
  path: string[];
  message: string;
}

export const TEXT_PROBLEM = "contains a NUL character or an unpaired surrogate, which cannot be stored";
export const NESTING_PROBLEM = `is nested more than ${MAX_NESTING} levels deep`;

/** The first string (or object key) in `value` that cannot be stored, or too deep a nesting. */
export function findUnstorable(value: unknown, path: string[] = []): Problem | null {
  if (typeof value === "string") return isStorableText(value) ? null : { path, message: TEXT_PROBLEM };
  if (value === null || typeof value !== "object") return null;
  if (path.length > MAX_NESTING) return { path, message: NESTING_PROBLEM };
  for (const [key, item] of Object.entries(value)) {
    if (!isStorableText(key)) return { path: [...path, key], message: TEXT_PROBLEM };
    const found = findUnstorable(item, [...path, key]);
    if (found) return found;
  }
  return null;
}
