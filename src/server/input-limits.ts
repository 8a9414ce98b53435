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
  type GraphQLInputType,
  type GraphQLSchema,
  isInputObjectType,
  isListType,
  Kind,
  type OperationDefinitionNode,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { declaredInputLimit, defaultInputLimit, isSizedAsEvent } from "../schema/input-limits.js";

/** An argument or an input field: what holds a value, with the limit it may declare. */
export interface InputHolder {
  type: GraphQLInputType;
  extensions?: Readonly<Record<string, unknown>> | null;
}

/**
 * The limit of the values `holder` holds: its declared one, else its type's default (null for an
 * event's own content, sized as a whole event).
 */
export function inputLimitOf(holder: InputHolder, inEvent: boolean, eventBytes: number): number | null {
  return (
    declaredInputLimit(holder.extensions) ?? defaultInputLimit(getNamedType(holder.type).name, inEvent, eventBytes)
  );
}

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
  const byDocument = new WeakMap<DocumentNode, { schema: GraphQLSchema; fields: FieldWithArguments[] }>();
  const fieldsToCheck = (schema: GraphQLSchema, document: DocumentNode) => {
    const cached = byDocument.get(document);
    if (cached?.schema === schema) return cached.fields;
    const fields: FieldWithArguments[] = [];
    const typeInfo = new TypeInfo(schema);
    visit(
      document,
      visitWithTypeInfo(typeInfo, {
        Field(node) {
          const definition = typeInfo.getFieldDef();
          if (!definition?.args.length) return;
          const field = { definition, node };
          if (usesVariables(node) || oversizedIn(field, {}, eventBytes)) fields.push(field);
        },
      }),
    );
    byDocument.set(document, { schema, fields });
    return fields;
  };
  return (
    schema: GraphQLSchema,
    document: DocumentNode,
    operationName: string | null | undefined,
    rawVariables: Record<string, unknown>,
  ): Oversized | null => {
    const operations = document.definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
    const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
    if (!operation) return null;
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables);
    if (coerced.errors) return null; // execution reports invalid variables
    // A variable is checked where it is used, under the name of the argument that receives it.
    for (const field of fieldsToCheck(schema, document)) {
      const found = oversizedIn(field, coerced.coerced, eventBytes);
      if (found) return found;
    }
    return null;
  };
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
