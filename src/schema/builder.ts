// Builder configuration and scalars only; the types live in one file each beside this one.
import SchemaBuilder from "@pothos/core";
import ErrorsPlugin from "@pothos/plugin-errors";
import PrismaPlugin from "@pothos/plugin-prisma";
import RelayPlugin from "@pothos/plugin-relay";
import { DateResolver, DateTimeResolver, JSONObjectResolver, JSONResolver, SafeIntResolver } from "graphql-scalars";
import type PrismaTypes from "../generated/pothos-types.js";
import { getDatamodel } from "../generated/pothos-types.js";
import type { Context } from "./context.js";
import { INPUT_LIMITS, inputLimit } from "./input-limits.js";
import TenantScopePlugin from "./tenant-scope-plugin.js";

export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: Context;
  DefaultInputFieldRequiredness: false;
  // Output fields are non-null unless a field says `nullable: true`: the schema promises what
  // the resolvers guarantee, and clients get non-optional types from codegen.
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    /** A calendar day, YYYY-MM-DD (UTC). */
    Date: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
    JSONObject: { Input: Record<string, unknown>; Output: unknown };
    /** A whole number up to 2^53 - 1: token totals pass GraphQL's 32-bit Int. */
    SafeInt: { Input: number; Output: number };
  };
}>({
  defaultFieldNullability: false,
  // The errors plugin wraps the others, so a tenant check's NotFoundError becomes a typed result.
  plugins: [ErrorsPlugin, PrismaPlugin, RelayPlugin, TenantScopePlugin],
  prisma: {
    // The request's store (buildApp's), never a module-level client.
    client: (ctx) => ctx.store.prisma,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === "production" ? null : "warn",
  },
  relay: {
    // Ids are the same raw strings everywhere (GraphQL, REST, exports): no global ids, no node().
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    clientMutationId: "omit",
    cursorType: "String",
    // Every connection's cursors, declared once (src/schema/input-limits.ts).
    beforeArgOptions: inputLimit(INPUT_LIMITS.cursor),
    afterArgOptions: inputLimit(INPUT_LIMITS.cursor),
  },
  errors: { directResult: true },
});

builder.addScalarType("DateTime", DateTimeResolver);
builder.addScalarType("Date", DateResolver);
builder.addScalarType("JSON", JSONResolver);
builder.addScalarType("JSONObject", JSONObjectResolver);
builder.addScalarType("SafeInt", SafeIntResolver);

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
