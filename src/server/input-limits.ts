// The size of every argument, checked before an operation runs: each string (and each JSON value,
// serialized) in the coerced arguments of every field has a limit, declared beside the argument or
// input field that holds it (src/schema/input-limits.ts) or the default of its type, and one beyond
// its limit refuses the operation as a VALIDATION_ERROR naming where it is. Without this an
// oversized value travelled to the database, which refused it deep in a write as an unexpected
// error (a 3,000-character idempotency key) or stored it (a 5 MB model name). The limits are
// documented in docs/production.md.
//
// Counts of things (events per write) and the size of an event are checked where they are
// decided, in the write validation (src/services/event-input.ts): inside an event, only the values
// with a limit of their own (names, metadata) are checked here; its content, parts and arguments
// count towards MAX_EVENT_BYTES there.
//
// A request whose variables go straight to arguments is first walked raw (input-limits-quick.ts):
// when that finds nothing, nothing is beyond its limit and the exact check below is skipped.
import {
  BREAK,
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  getArgumentValues,
  getNamedType,
  getNullableType,
  getVariableValues,
  GraphQLError,
  type ArgumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  isInputObjectType,
  isListType,
  Kind,
  type OperationDefinitionNode,
  TypeInfo,
  valueFromAST,
  visit,
  visitWithTypeInfo,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { isSizedAsEvent } from "../schema/input-limits.js";
import {
  type InputHolder,
  inputLimitOf,
  createQuickWalk,
  isPlainLiteral,
  type QuickField,
  quickFieldsOf,
} from "./input-limits-quick.js";

export { type InputHolder, inputLimitOf } from "./input-limits-quick.js";

interface Oversized {
  path: string[];
  message: string;
}

/** The first value in `value` (of input type `type`, held by `holder`) beyond its limit. */
function findOversized(
  value: unknown,
  type: GraphQLInputType,
  holder: InputHolder,
  path: string[],
  eventBytes: number,
  inEvent = false,
): Oversized | null {
  if (value == null) return null;
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    if (!Array.isArray(value)) return findOversized(value, nullable.ofType, holder, path, eventBytes, inEvent);
    for (const [index, item] of value.entries()) {
      const found = findOversized(item, nullable.ofType, holder, [...path, String(index)], eventBytes, inEvent);
      if (found) return found;
    }
    return null;
  }
  if (isInputObjectType(nullable)) {
    const event = inEvent || isSizedAsEvent(nullable.extensions);
    for (const [fieldName, field] of Object.entries(nullable.getFields())) {
      const found = findOversized(
        (value as Record<string, unknown>)[fieldName],
        field.type,
        field,
        [...path, fieldName],
        eventBytes,
        event,
      );
      if (found) return found;
    }
    return null;
  }
  const limit = inputLimitOf(holder, inEvent, eventBytes);
  if (limit === null) return null;
  if (typeof value === "string") {
    return value.length > limit ? { path, message: `at most ${limit} characters (got ${value.length})` } : null;
  }
  const typeName = getNamedType(type).name;
  if (typeName === "JSON" || typeName === "JSONObject") {
    const bytes = Buffer.byteLength(JSON.stringify(value));
    return bytes > limit ? { path, message: `at most ${limit} bytes as JSON (got ${bytes})` } : null;
  }
  return null;
}

/** A field of the document that takes arguments, with what its definition says they are. */
interface FieldWithArguments {
  definition: GraphQLField<unknown, unknown>;
  node: FieldNode;
}

const usesVariables = (node: FieldNode) => {
  let found = false;
  for (const argument of node.arguments ?? []) {
    visit(argument, {
      Variable() {
        found = true;
        return BREAK;
      },
    });
  }
  return found;
};

/** The first value of `field`'s arguments beyond its limit (null also when execution will refuse them). */
function oversizedIn({ definition, node }: FieldWithArguments, variables: Record<string, unknown>, eventBytes: number) {
  let values: Record<string, unknown>;
  try {
    values = getArgumentValues(definition, node, variables);
  } catch {
    return null; // execution reports invalid arguments
  }
  let found: Oversized | null = null;
  for (const arg of definition.args) {
    found ??= findOversized(values[arg.name], arg.type, arg, [arg.name], eventBytes);
  }
  return found;
}

/**
 * The first argument of an operation beyond its input limit, with the walk over the document done
 * once per document object (Yoga's parse cache hands back the same one for the same query text): what is kept is the list of fields
 * whose arguments must be checked on every request, in document order, i.e. those that use a
 * variable, and those whose literals alone are already too large. A field of literals within the
 * limits passes whatever the variables are, so it is dropped from the list.
 */
export function createInputLimitCheck(eventBytes: number) {
  interface Checks {
    schema: GraphQLSchema;
    fields: FieldWithArguments[];
    /** The same fields for the quick walk over raw variables (src/server/input-limits-quick.ts), when it can read them. */
    quick: QuickField[] | null;
  }
  const byDocument = new WeakMap<DocumentNode, Checks>();
  const mayBeOversized = createQuickWalk(eventBytes);
  const checksOf = (schema: GraphQLSchema, document: DocumentNode): Checks => {
    const cached = byDocument.get(document);
    if (cached?.schema === schema) return cached;
    const fields: (FieldWithArguments & { literalsWithin: boolean })[] = [];
    const typeInfo = new TypeInfo(schema);
    visit(
      document,
      visitWithTypeInfo(typeInfo, {
        Field(node) {
          const definition = typeInfo.getFieldDef();
          if (!definition?.args.length) return;
          const field = { definition, node };
          if (usesVariables(node) || oversizedIn(field, {}, eventBytes)) {
            fields.push({ ...field, literalsWithin: literalsWithin(field, eventBytes) });
          }
        },
      }),
    );
    const checks = { schema, fields, quick: quickFieldsOf(document, fields) };
    byDocument.set(document, checks);
    return checks;
  };
  return (
    schema: GraphQLSchema,
    document: DocumentNode,
    operationName: string | null | undefined,
    rawVariables: Record<string, unknown>,
  ): Oversized | null => {
    const checks = checksOf(schema, document);
    if (checks.quick && !mayBeOversized(checks.quick, rawVariables)) return null;
    const operations = document.definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
    const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
    if (!operation) return null;
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables);
    if (coerced.errors) return null; // execution reports invalid variables
    // A variable is checked where it is used, under the name of the argument that receives it.
    for (const field of checks.fields) {
      const found = oversizedIn(field, coerced.coerced, eventBytes);
      if (found) return found;
    }
    return null;
  };
}

/**
 * Whether the field's arguments other than whole variables are literals (no variable inside)
 * within their limits: then the quick walk needs to read only its variables.
 */
function literalsWithin({ definition, node }: FieldWithArguments, eventBytes: number) {
  return (node.arguments ?? []).every((argument: ArgumentNode) => {
    if (argument.value.kind === Kind.VARIABLE) return true;
    const declared = definition.args.find((a) => a.name === argument.name.value);
    if (!declared || !isPlainLiteral(argument)) return false;
    const value = valueFromAST(argument.value, declared.type);
    return value !== undefined && !findOversized(value, declared.type, declared, [declared.name], eventBytes);
  });
}

export function useInputLimits(eventBytes: number): Plugin {
  const oversizedArgument = createInputLimitCheck(eventBytes);
  const check = (args: {
    schema: GraphQLSchema;
    document: DocumentNode;
    operationName?: string | null;
    variableValues?: unknown;
  }) => {
    const found = oversizedArgument(
      args.schema,
      args.document,
      args.operationName,
      (args.variableValues ?? {}) as Record<string, unknown>,
    );
    if (!found) return null;
    return new GraphQLError(`${found.path.join(".")}: ${found.message}`, {
      extensions: { code: "VALIDATION_ERROR", fieldErrors: [found] },
    });
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
