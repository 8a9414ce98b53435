// PostgreSQL cannot store every JavaScript value: text and jsonb refuse the NUL character, jsonb
// refuses an unpaired UTF-16 surrogate, and its parser gives up on very deep nesting. Such a value
// would fail deep inside a write as an unexpected error; instead every operation's variables and
// literals are checked before it runs, and one that carries such a value is refused as a
// VALIDATION_ERROR naming where it is.
import { type DocumentNode, GraphQLError, visit } from "graphql";
import type { Plugin } from "graphql-yoga";
import {
  findUnstorable,
  isStorableText,
  MAX_NESTING,
  NESTING_PROBLEM,
  type Problem,
  TEXT_PROBLEM,
} from "../vocabulary/storable-text.js";

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
