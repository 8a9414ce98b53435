// The cost limit again, on the arguments the operation will really run with. graphql-armor's cost
// rule runs at validation, before variables are known, so it prices `first: $n` as one row and a
// connection without `first`/`last` as one row too. Here, just before execution, the document is
// rewritten with the coerced page sizes written in as literals (a missing one becomes the page
// size the resolver would use, a too large one the size it would cap to), and armor's own rule
// prices that document: the same formula, the same message, with what will actually be read.
import { costLimitRule } from "@escape.tech/graphql-armor-cost-limit";
import {
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type GraphQLError,
  type GraphQLSchema,
  getNamedType,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
  type VariableDefinitionNode,
  TypeInfo,
  validate,
  visit,
  visitWithTypeInfo,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { DEFAULT_HISTORY_PAGE, MAX_HISTORY_PAGE } from "../schema/history-connection.js";
import { tooComplex } from "./too-complex.js";

// Pothos relay's defaults for the Prisma connections (dialogs, responses).
const DEFAULT_PAGE = 20;
const MAX_PAGE = 100;

const pageSizes = (connection: string) =>
  connection === "HistoryConnection"
    ? { fallback: DEFAULT_HISTORY_PAGE, max: MAX_HISTORY_PAGE }
    : { fallback: DEFAULT_PAGE, max: MAX_PAGE };

export function useCoercedCost(maxCost: number): Plugin {
  const priced = createCoercedCostCache(maxCost);
  const check = (args: {
    schema: GraphQLSchema;
    document: DocumentNode;
    operationName?: string | null;
    variableValues?: unknown;
  }) => priced(args.schema, args.document, args.operationName, (args.variableValues ?? {}) as Record<string, unknown>);
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const errors = check(args);
      if (errors.length) setResultAndStopExecution({ errors });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const errors = check(args);
      if (errors.length) setResultAndStopExecution({ errors });
    },
  };
}

/** Where a connection's `first` or `last` comes from: a literal, a variable, or nowhere. */
type SizeSource = { literal: number } | { variable: string } | null;

interface PagedField {
  fallback: number;
  max: number;
  first: SizeSource;
  last: SizeSource;
}

/** The page size a connection field will read: what costOnCoercedArguments writes into the document. */
function pageSizeOf(field: PagedField, variables: Record<string, unknown>) {
  const valueOf = (source: SizeSource): number | undefined => {
    if (!source) return undefined;
    if ("literal" in source) return source.literal;
    const value = variables[source.variable];
    return typeof value === "number" ? value : undefined;
  };
  return Math.min(field.max, Math.max(valueOf(field.first) ?? 0, valueOf(field.last) ?? 0) || field.fallback);
}

function sizeSource(field: FieldNode, name: string): SizeSource {
  const arg = field.arguments?.find((a) => a.name.value === name);
  if (!arg) return null;
  if (arg.value.kind === Kind.INT) return { literal: Number(arg.value.value) };
  if (arg.value.kind === Kind.VARIABLE) return { variable: arg.value.name.value };
  return null;
}

/** The operation `operationName` names (the first one when it names none), and the document it runs in. */
function operationToRun(document: DocumentNode, operationName: string | null | undefined) {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  if (!operation) return null;
  // Only the operation that runs is priced (the others' literals were priced at validation).
  const runs: DocumentNode = {
    ...document,
    definitions: document.definitions.filter((d) => d.kind !== Kind.OPERATION_DEFINITION || d === operation),
  };
  return { operation, runs };
}

/** The connection fields of `runs`, in the order costOnCoercedArguments rewrites them. */
function pagedFields(schema: GraphQLSchema, runs: DocumentNode): PagedField[] {
  const fields: PagedField[] = [];
  const typeInfo = new TypeInfo(schema);
  visit(
    runs,
    visitWithTypeInfo(typeInfo, {
      Field(field) {
        const definition = typeInfo.getFieldDef();
        const type = definition && getNamedType(definition.type);
        if (!definition || !type?.name.endsWith("Connection")) return;
        fields.push({ ...pageSizes(type.name), first: sizeSource(field, "first"), last: sizeSource(field, "last") });
      },
    }),
  );
  return fields;
}

/** Page-size combinations remembered per document and operation; more are priced every time. */
const ACCEPTED_PER_OPERATION = 64;

/**
 * costOnCoercedArguments, remembering which page sizes a document passed. The price depends only
 * on the document, the operation and the page sizes its connection fields will read, so the walk
 * that rewrites and prices the document runs once per document (Yoga's parse cache hands back the
 * same document object for the same query text) and page-size combination. Only acceptances are
 * remembered: a refused request is priced again, so its errors are its own.
 */
export function createCoercedCostCache(maxCost: number) {
  const byDocument = new WeakMap<
    DocumentNode,
    Map<
      string | null | undefined,
      {
        schema: GraphQLSchema;
        fields: PagedField[];
        /** The definitions of the variables page sizes come from: only they are coerced here. */
        sizeVariables: VariableDefinitionNode[];
        accepted: Set<string>;
      } | null
    >
  >();
  return (
    schema: GraphQLSchema,
    document: DocumentNode,
    operationName: string | null | undefined,
    rawVariables: Record<string, unknown>,
  ): GraphQLError[] => {
    let byOperation = byDocument.get(document);
    if (!byOperation) byDocument.set(document, (byOperation = new Map()));
    let plan = byOperation.get(operationName);
    if (plan === undefined || (plan && plan.schema !== schema)) {
      const found = operationToRun(document, operationName);
      const fields = found && pagedFields(schema, found.runs);
      const named = new Set(
        fields?.flatMap((f) => [f.first, f.last]).flatMap((s) => (s && "variable" in s ? [s.variable] : [])),
      );
      plan = found && {
        schema,
        fields: fields!,
        sizeVariables: (found.operation.variableDefinitions ?? []).filter((d) => named.has(d.variable.name.value)),
        accepted: new Set(),
      };
      byOperation.set(operationName, plan);
    }
    if (!plan) return [];
    // Each variable coerces on its own, so coercing only those the sizes come from gives the same
    // sizes; an error in another variable is execution's to report, whatever the price.
    const coerced = getVariableValues(schema, plan.sizeVariables, rawVariables);
    if (coerced.errors) return [];
    const key = plan.fields.map((field) => pageSizeOf(field, coerced.coerced)).join(",");
    if (plan.accepted.has(key)) return [];
    const errors = costOnCoercedArguments(schema, document, operationName, rawVariables, maxCost);
    if (!errors.length && plan.accepted.size < ACCEPTED_PER_OPERATION) plan.accepted.add(key);
    return errors;
  };
}

export function costOnCoercedArguments(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  rawVariables: Record<string, unknown>,
  maxCost: number,
): GraphQLError[] {
  const found = operationToRun(document, operationName);
  if (!found) return [];
  const { operation, runs } = found;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables);
  // Invalid variables are execution's to report, with its own message.
  if (coerced.errors) return [];
  const variables = coerced.coerced;

  const typeInfo = new TypeInfo(schema);
  const priced = visit(
    runs,
    visitWithTypeInfo(typeInfo, {
      Field(field) {
        const definition = typeInfo.getFieldDef();
        const type = definition && getNamedType(definition.type);
        if (!definition || !type?.name.endsWith("Connection")) return undefined;
        const size = pageSizeOf(
          { ...pageSizes(type.name), first: sizeSource(field, "first"), last: sizeSource(field, "last") },
          variables,
        );
        const others = (field.arguments ?? []).filter((a) => a.name.value !== "first" && a.name.value !== "last");
        const first: ArgumentNode = {
          kind: Kind.ARGUMENT,
          name: { kind: Kind.NAME, value: "first" },
          value: { kind: Kind.INT, value: String(size) },
        };
        return { ...field, arguments: [first, ...others] };
      },
    }),
  );

  const errors: GraphQLError[] = [];
  validate(schema, priced, [
    costLimitRule({
      maxCost,
      flattenFragments: true,
      propagateOnRejection: false,
      onReject: [(_context, error) => errors.push(tooComplex(error, "cost"))],
    }),
  ]);
  return errors;
}
