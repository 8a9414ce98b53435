// Queries run as compiled JavaScript (graphql-jit) instead of through the interpreting executor:
// a large answer (a whole history of 10,000 events) costs about half the CPU, because the
// compiled code resolves and completes each event without the executor's per-field bookkeeping
// (bench/scenarios/read.ts: whole history p50 about 2× faster; a first page and writes do not
// move). Each document is compiled once: Yoga's parse cache hands the same document object back
// for the same query text.
// Only queries: mutations and subscriptions keep the standard executor, whose behaviour the write
// path and the live plugins rely on. And only answers without errors: graphql-jit's errors carry
// no `locations`, so a query that reports an error is answered by the standard executor instead
// (a query only reads, so running it again changes nothing). The second run starts with the rows
// and bytes of the request budget unspent (its deadline stands): the first run's reads must not
// turn a field's error into a refusal for the whole request.
import type { DocumentNode, GraphQLSchema } from "graphql";
import { getOperationAST } from "graphql";
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import type { Plugin } from "graphql-yoga";
import type { Context } from "../schema/context.js";

export function useCompiledQueries(): Plugin {
  const compiled = new WeakMap<DocumentNode, Map<string | null | undefined, CompiledQuery | null>>();
  function compiledFor(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null) {
    let byName = compiled.get(document);
    if (!byName) compiled.set(document, (byName = new Map()));
    if (!byName.has(operationName)) {
      const result = compileQuery(schema, document, operationName ?? undefined);
      byName.set(operationName, isCompiledQuery(result) ? result : null);
    }
    return byName.get(operationName)!;
  }
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      if (getOperationAST(args.document, args.operationName)?.operation !== "query") return;
      const query = compiledFor(args.schema, args.document, args.operationName);
      if (!query) return;
      setExecuteFn(async (execution) => {
        const result = await query.query(execution.rootValue, execution.contextValue, execution.variableValues);
        if (!result.errors?.length) return result;
        (execution.contextValue as Context).budget.restart();
        return executeFn(execution);
      });
    },
  };
}
