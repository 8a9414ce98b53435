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
  type GraphQLError,
  type GraphQLSchema,
  getNamedType,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
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
  const check = (args: {
    schema: GraphQLSchema;
    document: DocumentNode;
    operationName?: string | null;
    variableValues?: unknown;
  }) =>
    costOnCoercedArguments(
      args.schema,
      args.document,
      args.operationName,
      (args.variableValues ?? {}) as Record<string, unknown>,
      maxCost,
    );
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

export function costOnCoercedArguments(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  rawVariables: Record<string, unknown>,
  maxCost: number,
): GraphQLError[] {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  if (!operation) return [];
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables);
  // Invalid variables are execution's to report, with its own message.
  if (coerced.errors) return [];
  const variables = coerced.coerced;

  // Only the operation that runs is priced (the others' literals were priced at validation).
  const runs = {
    ...document,
    definitions: document.definitions.filter((d) => d.kind !== Kind.OPERATION_DEFINITION || d === operation),
  };
  const typeInfo = new TypeInfo(schema);
  const priced = visit(
    runs,
    visitWithTypeInfo(typeInfo, {
      Field(field) {
        const definition = typeInfo.getFieldDef();
        const type = definition && getNamedType(definition.type);
        if (!definition || !type?.name.endsWith("Connection")) return undefined;
        const { fallback, max } = pageSizes(type.name);
        const valueOf = (name: string): number | undefined => {
          const arg = field.arguments?.find((a) => a.name.value === name);
          if (!arg) return undefined;
          if (arg.value.kind === Kind.INT) return Number(arg.value.value);
          if (arg.value.kind === Kind.VARIABLE) {
            const value = variables[arg.value.name.value];
            return typeof value === "number" ? value : undefined;
          }
          return undefined;
        };
        const size = Math.min(max, Math.max(valueOf("first") ?? 0, valueOf("last") ?? 0) || fallback);
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
