// Every input has a documented limit and a typed VALIDATION_ERROR at it (issue 13, finding 4). The
// limits are declared beside each argument in the schema (src/schema/input-limits.ts); every string,
// ID and JSON argument of every root field (nested input fields included) is sent once at its limit
// and once one beyond it. A limit belongs to the argument that declares it, not to its name. Nothing
// oversized is stored, and an oversized WebSocket message costs one log line.
import { testApp } from "./support/graphql.js";
import { store, testConfig } from "./support/database.js";
import {
  getNamedType,
  type GraphQLField,
  type GraphQLInputType,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  parse,
} from "graphql";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { startServer } from "../src/server/http-server.js";
import { INPUT_LIMITS, inputLimit } from "../src/schema/input-limits.js";
import { schema as appSchema } from "../src/schema/index.js";
import { createInputLimitCheck, type InputHolder, inputLimitOf } from "../src/server/input-limits.js";
import { rowCounts } from "./support/dialogs.js";

const app = testApp({ limits: { rateLimitRequests: 0 } });
const send = async (query: string, variables?: Record<string, unknown>) => {
  const response = await app.fetch("http://localhost/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as Answer;
};

/**
 * An answer as these checks read it (the documents are generated from the schema at run time,
 * so there is no typed document): a write's typename, and errors with their field errors.
 */
interface Answer {
  data?: { createResponse?: { __typename: string } } & Record<string, unknown>;
  errors?: { message: string; extensions?: { code?: string; fieldErrors?: { path: string[] }[] } }[];
}

describe("the issue's oversized inputs", () => {
  const create = (input: Record<string, unknown>) =>
    send(`mutation($input: CreateResponseInput!) { createResponse(input: $input) { __typename } }`, {
      input: { input: [{ human: { content: "hi" } }], ...input },
    });

  it("a 3,000-character idempotencyKey is a VALIDATION_ERROR, not an internal error", async () => {
    const before = await rowCounts();
    const answer = await create({ idempotencyKey: "k".repeat(3_000) });
    expect(answer.errors?.[0]).toMatchObject({
      message: `input.idempotencyKey: at most ${INPUT_LIMITS.idempotencyKey} characters (got 3000)`,
      extensions: { code: "VALIDATION_ERROR", fieldErrors: [{ path: ["input", "idempotencyKey"] }] },
    });
    expect(await rowCounts()).toEqual(before);
    expect(
      (await create({ idempotencyKey: "k".repeat(INPUT_LIMITS.idempotencyKey) })).data?.createResponse?.__typename,
    ).toBe("Response");
  });

  it("the same document is checked again for every request's variables, and its oversized literals every time", async () => {
    const keyed = (length: number) =>
      create({ idempotencyKey: `${"k".repeat(length - 6)}${Math.random().toFixed(4)}` });
    for (let round = 0; round < 2; round++) {
      expect((await keyed(INPUT_LIMITS.idempotencyKey)).data?.createResponse?.__typename).toBe("Response");
      expect((await keyed(INPUT_LIMITS.idempotencyKey + 1)).errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    }
    const literal = `{ dialog(id: "${"d".repeat(INPUT_LIMITS.id + 1)}") { id } }`;
    for (let round = 0; round < 2; round++) {
      expect((await send(literal)).errors?.[0]).toMatchObject({
        message: `id: at most ${INPUT_LIMITS.id} characters (got ${INPUT_LIMITS.id + 1})`,
        extensions: { code: "VALIDATION_ERROR" },
      });
    }
  });

  it("a 5 MB model name is refused and nothing is stored", async () => {
    const before = await rowCounts();
    const answer = await create({ model: "m".repeat(5 * 1024 * 1024) });
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      fieldErrors: [{ path: ["input", "model"] }],
    });
    expect(await rowCounts()).toEqual(before);
  });
});

// ---- the walk over the schema ----

interface Leaf {
  field: string;
  operation: "query" | "mutation" | "subscription";
  /** Path from the argument name down to the string or JSON value. */
  path: string[];
  limit: number;
  kind: "string" | "json";
}

/** Every string or JSON position under an argument, with its documented limit. An event's content,
 * parts and arguments have none of their own: the event's size limit covers them (test/limits.test.ts). */
function leavesOf(
  type: GraphQLInputType,
  holder: InputHolder,
  path: string[],
  seen: Set<string>,
  inEvent = false,
): Omit<Leaf, "field" | "operation">[] {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return leavesOf(inner.ofType, holder, [...path, "0"], seen, inEvent);
  if (isInputObjectType(inner)) {
    if (seen.has(inner.name)) return [];
    const nested = new Set(seen).add(inner.name);
    const event = inEvent || inner.name === "HistoryEventInput";
    return Object.values(inner.getFields()).flatMap((field) =>
      leavesOf(field.type, field, [...path, field.name], nested, event),
    );
  }
  const typeName = getNamedType(inner).name;
  const kind =
    typeName === "String" || typeName === "ID"
      ? "string"
      : typeName === "JSON" || typeName === "JSONObject"
        ? "json"
        : null;
  const limit = inputLimitOf(holder, inEvent, testConfig.MAX_EVENT_BYTES);
  return kind && limit !== null ? [{ path, limit, kind }] : [];
}

/** A small valid value of `type`, with `target` (a path inside it) set to `leaf`. */
function sample(type: GraphQLInputType, target: string[] | null, leaf: unknown): unknown {
  if (target && target.length === 0) return leaf;
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return [sample(inner.ofType, target ? target.slice(1) : null, leaf)];
  if (isInputObjectType(inner)) {
    const fields = Object.values(inner.getFields());
    const oneOf = (inner as { isOneOf?: boolean }).isOneOf;
    const chosen = oneOf
      ? [fields.find((f) => f.name === target?.[0]) ?? fields.find((f) => f.name === "human") ?? fields[0]!]
      : fields.filter((f) => isNonNullType(f.type) || f.name === target?.[0]);
    const value: Record<string, unknown> = {};
    for (const field of chosen)
      value[field.name] = sample(field.type, field.name === target?.[0] ? target!.slice(1) : null, leaf);
    if (fields.some((f) => f.name === "content") && !("content" in value) && !oneOf) value.content = "x";
    return value;
  }
  if (isEnumType(inner)) return inner.getValues()[0]!.value;
  if (isScalarType(inner)) {
    return (
      {
        String: "x",
        ID: "x",
        Int: 1,
        Float: 1,
        Boolean: true,
        DateTime: "2026-01-01T00:00:00Z",
        JSON: {},
        JSONObject: {},
      } as Record<string, unknown>
    )[inner.name];
  }
  return null;
}

const sized = (kind: Leaf["kind"], size: number) =>
  // {"p":"…"} is 8 bytes around the padding.
  kind === "string" ? "x".repeat(size) : { p: "x".repeat(size - 8) };

function operationFor(schema: GraphQLSchema, leaf: Leaf, size: number) {
  const root = {
    query: schema.getQueryType(),
    mutation: schema.getMutationType(),
    subscription: schema.getSubscriptionType(),
  }[leaf.operation]!;
  const field = root.getFields()[leaf.field] as GraphQLField<unknown, unknown>;
  const [argName, ...rest] = leaf.path;
  const variables: Record<string, unknown> = {};
  const declared: string[] = [];
  const passed: string[] = [];
  for (const arg of field.args) {
    const isTarget = arg.name === argName;
    if (!isTarget && !isNonNullType(arg.type)) continue;
    variables[arg.name] = sample(arg.type, isTarget ? rest : null, sized(leaf.kind, size));
    declared.push(`$${arg.name}: ${arg.type.toString()}`);
    passed.push(`${arg.name}: $${arg.name}`);
  }
  const selection = isCompositeType(getNamedType(field.type)) ? " { __typename }" : "";
  return {
    query: `${leaf.operation}(${declared.join(", ")}) { ${leaf.field}(${passed.join(", ")})${selection} }`,
    variables,
  };
}

describe("every argument of the schema, with the limit declared beside it", () => {
  // The app's own schema object, not an introspected copy: introspection does not carry the
  // extensions the limits are declared in.
  const schema = appSchema;
  const leaves: Leaf[] = [];
  beforeAll(() => {
    for (const operation of ["query", "mutation", "subscription"] as const) {
      const root = {
        query: schema.getQueryType(),
        mutation: schema.getMutationType(),
        subscription: schema.getSubscriptionType(),
      }[operation];
      for (const field of Object.values(root?.getFields() ?? {})) {
        for (const arg of field.args) {
          for (const leaf of leavesOf(arg.type, arg, [arg.name], new Set()))
            leaves.push({ field: field.name, operation, ...leaf });
        }
      }
    }
  });

  it("one character (or byte) beyond the documented limit is a VALIDATION_ERROR naming the place; at the limit it is not", async () => {
    expect(leaves.length).toBeGreaterThan(40);
    const before = await rowCounts();
    const problems: string[] = [];
    for (const leaf of leaves) {
      const where = `${leaf.operation} ${leaf.field} ${leaf.path.join(".")}`;
      const over = operationFor(schema, leaf, leaf.limit + 1);
      const refused = await send(over.query, over.variables);
      const error = refused.errors?.[0];
      if (
        error?.extensions?.code !== "VALIDATION_ERROR" ||
        JSON.stringify(error.extensions.fieldErrors?.[0]?.path) !== JSON.stringify(leaf.path)
      ) {
        problems.push(`${where}: over the limit answered ${JSON.stringify(refused).slice(0, 300)}`);
      }
      const at = operationFor(schema, leaf, leaf.limit);
      const accepted = await send(at.query, at.variables);
      if (
        accepted.errors?.some(
          (e) =>
            e.extensions?.code === "VALIDATION_ERROR" &&
            JSON.stringify(e.extensions.fieldErrors?.[0]?.path) === JSON.stringify(leaf.path),
        )
      ) {
        problems.push(`${where}: at the limit it was refused`);
      }
    }
    expect(problems).toEqual([]);
    // Nothing oversized was stored (the at-limit writes may have been).
    const after = await rowCounts();
    expect(after.events - before.events).toBeLessThanOrEqual(leaves.length * 2);
  });
});

describe("a limit belongs to the argument that declares it", () => {
  // A schema planted for the test: the title of a dialog declares its limit; a new field's argument
  // that happens to be called `title` declares none, so it gets the default of its type.
  const planted = new GraphQLSchema({
    query: new GraphQLObjectType({
      name: "Query",
      fields: {
        renameDialog: {
          type: GraphQLString,
          args: { title: { type: GraphQLString, ...inputLimit(INPUT_LIMITS.title) } },
        },
        addNote: { type: GraphQLString, args: { title: { type: GraphQLString } } },
      },
    }),
  });
  const oversized = createInputLimitCheck(testConfig.MAX_EVENT_BYTES);
  const check = (field: string, title: string) =>
    oversized(planted, parse(`query($title: String) { ${field}(title: $title) }`), null, { title });

  it("a new argument named title does not inherit another field's 1,000 characters", () => {
    const long = "t".repeat(INPUT_LIMITS.title + 1);
    expect(check("renameDialog", long)).toEqual({
      path: ["title"],
      message: `at most ${INPUT_LIMITS.title} characters (got ${INPUT_LIMITS.title + 1})`,
    });
    expect(check("addNote", long)).toBeNull();
    expect(check("addNote", "t".repeat(testConfig.MAX_EVENT_BYTES + 1))).toEqual({
      path: ["title"],
      message: `at most ${testConfig.MAX_EVENT_BYTES} characters (got ${testConfig.MAX_EVENT_BYTES + 1})`,
    });
  });
});

describe("oversized WebSocket messages", () => {
  afterEach(() => vi.restoreAllMocks());

  it("close the socket with 1009 and log one line, even before connection_init", async () => {
    const lines: unknown[][] = [];
    for (const method of ["error", "warn", "info", "log"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void lines.push(args));
    }
    const server = await startServer({ store, config: testConfig, port: 0, limits: { bodyBytes: 1_000 } });
    try {
      for (let i = 0; i < 3; i++) {
        const socket = new WebSocket(`${server.url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws");
        await new Promise((resolve) => socket.once("open", resolve));
        const closed = new Promise<number>((resolve) => socket.once("close", resolve));
        socket.send("x".repeat(2_000));
        expect(await closed).toBe(1009);
      }
    } finally {
      await server.close();
    }
    // LOG_LEVEL is silent in tests, so our line is not printed; graphql-ws's stack trace would be.
    expect(
      lines.filter((args) => args.some((arg) => arg instanceof Error || /Internal error/.test(String(arg)))),
    ).toEqual([]);
  });
});
