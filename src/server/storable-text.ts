// PostgreSQL cannot store every JavaScript value: text and jsonb refuse the NUL character, jsonb
// refuses an unpaired UTF-16 surrogate, and its parser gives up on very deep nesting. Such a value
// would fail deep inside a write as an unexpected error; instead every operation's variables and
// literals are checked before it runs, and one that carries such a value is refused as a
// VALIDATION_ERROR naming where it is.
import { type DocumentNode, GraphQLError, visit } from "graphql";
import type { Plugin } from "graphql-yoga";

// A NUL, a high surrogate not followed by a low one, or a low one not preceded by a high one.
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorableText = (text: string) => !UNSTORABLE.test(text);

/** Far deeper than any real metadata or tool arguments, far shallower than jsonb's limit. */
export const MAX_NESTING = 64;

interface Problem {
  path: string[];
  message: string;
}

const TEXT_PROBLEM = "contains a NUL character or an unpaired surrogate, which cannot be stored";
const NESTING_PROBLEM = `is nested more than ${MAX_NESTING} levels deep`;

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

function findInLiterals(document: DocumentNode): Problem | null {
  let found: Problem | null = null;
  let nesting = 0;
  const enter = () => {
    if (++nesting > MAX_NESTING) found ??= { path: [], message: `a literal ${NESTING_PROBLEM}` };
  };
  const leave = () => void nesting--;
  visit(document, {
    StringValue(node) {
      if (!isStorableText(node.value)) found ??= { path: [], message: `a string literal ${TEXT_PROBLEM}` };
    },
    ObjectValue: { enter, leave },
    ListValue: { enter, leave },
  });
  return found;
}

function unstorableError({ path, message }: Problem, inVariables: boolean) {
  const where = inVariables ? `variables.${path.join(".")} ` : "";
  return new GraphQLError(`${where}${message}`, {
    extensions: { code: "VALIDATION_ERROR", fieldErrors: [{ path, message }] },
  });
}

export function useStorableTextOnly(): Plugin {
  // A document's literals do not change: they are walked once per document object (Yoga's parse
  // cache hands back the same one for the same query text).
  const literalsChecked = new WeakMap<DocumentNode, Problem | null>();
  const inLiteralsOf = (document: DocumentNode) => {
    if (!literalsChecked.has(document)) literalsChecked.set(document, findInLiterals(document));
    return literalsChecked.get(document)!;
  };
  const check = (args: { document: DocumentNode; variableValues?: unknown }) => {
    const inVariables = findUnstorable(args.variableValues ?? {});
    if (inVariables) return unstorableError(inVariables, true);
    const inLiterals = inLiteralsOf(args.document);
    return inLiterals ? unstorableError(inLiterals, false) : null;
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const error = check(args);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const error = check(args);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
  };
}
