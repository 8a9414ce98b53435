// graphql-codegen: typed documents for every operation written with `graphql(…)` in the client,
// the web viewer and the tests, from the checked-in schema.graphql. `npm run codegen` rewrites
// src/client/generated; a test fails when it is out of date.
import type { CodegenConfig } from "@graphql-codegen/cli";

const config: CodegenConfig = {
  schema: "schema.graphql",
  documents: ["src/client/**/*.ts", "test/**/*.ts", "web/src/**/*.{ts,tsx}", "!src/client/generated/**"],
  ignoreNoDocuments: true,
  // ESM with NodeNext resolution: generated imports carry their .js extension.
  emitLegacyCommonJSImports: false,
  // Only `graphql(…)` calls are operations; /* GraphQL */ strings in tests are loose fragments
  // of text (field lists), not documents to generate from.
  pluckConfig: { gqlMagicComment: "codegen-operation", globalGqlIdentifierName: ["graphql"] },
  generates: {
    "src/client/generated/": {
      preset: "client",
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: {
          DateTime: "string",
          JSON: "unknown",
          JSONObject: "Record<string, unknown>",
          SafeInt: "number",
        },
      },
    },
  },
};

export default config;
