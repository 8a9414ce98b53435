// Random and malformed operations for the fuzz test, from a seeded generator so that a failure
// can be replayed (FUZZ_SEED). Each operation is a raw HTTP request: what a buggy or hostile client
// could send, from well-formed mutations with wrong values to bytes that are not JSON at all.

export function seededRandom(seed: number) {
  // mulberry32: small, fast, and good enough to pick cases.
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}

export type Random = ReturnType<typeof seededRandom>;

export interface FuzzRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** What the case is, for the failure report. */
  label: string;
}

export interface KnownIds {
  dialogs: string[];
  responses: string[];
}

const STRANGE_STRINGS = [
  "",
  " ",
  "x".repeat(100_000),
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udc00x",
  "😀".repeat(1000),
  '\'; DROP TABLE "Dialog"; --',
  "../../etc/passwd",
  "%00%zz",
  "null",
  "<script>alert(1)</script>",
  "resp_",
  "evt_01J0000000000000000000000",
  "01J" + "Z".repeat(23),
  "\\u0000",
];

export function fuzzCases(random: Random, known: KnownIds) {
  const { int, pick, chance } = random;

  const strangeValue = (depth = 0): unknown => {
    switch (int(depth > 3 ? 6 : 9)) {
      case 0:
        return pick(STRANGE_STRINGS);
      case 1:
        return pick([0, -1, 1.5, 2 ** 31, -(2 ** 53), Number.MAX_SAFE_INTEGER, 1e308]);
      case 2:
        return pick([true, false, null]);
      case 3:
        return "ok " + int(1000);
      case 4:
        return pick(["HUMAN", "COMPLETED", "IN_PROGRESS", "DISCARD", "2024-01-01T00:00:00Z", "0000-01-01T00:00:00Z"]);
      case 5:
        return {};
      case 6:
        return Array.from({ length: int(4) }, () => strangeValue(depth + 1));
      case 7:
        return Object.fromEntries(
          Array.from({ length: int(4) }, () => [pick(["a", "content", "type", "\u0000", ""]), strangeValue(depth + 1)]),
        );
      default:
        return nested(int(120));
    }
  };
  const nested = (levels: number): unknown => {
    let value: unknown = "bottom";
    for (let i = 0; i < levels; i++) value = chance(0.5) ? { a: value } : [value];
    return value;
  };

  const someId = (kind: "dialog" | "response") =>
    chance(0.5) ? pick(kind === "dialog" ? known.dialogs : known.responses) : pick(STRANGE_STRINGS);

  const event = (): unknown => {
    if (chance(0.15)) return strangeValue();
    const kind = pick(["human", "ai", "system", "reasoning", "toolCall", "toolResult", "bogus"]);
    const fields: Record<string, unknown> = {};
    for (const field of [
      "content",
      "parts",
      "metadata",
      "createdAt",
      "callId",
      "toolName",
      "args",
      "isError",
      "modelName",
    ]) {
      if (chance(0.3)) fields[field] = chance(0.5) ? "text " + int(100) : strangeValue();
    }
    if (chance(0.6)) fields.content = "hello " + int(100);
    const value: Record<string, unknown> = { [kind]: fields };
    if (chance(0.05)) value.ai = { content: "two kinds" };
    return value;
  };
  const events = () => (chance(0.1) ? strangeValue() : Array.from({ length: int(5) }, event));

  // Well-typed events with odd but legal values, so that many writes get through to the database.
  const text = () => pick(["hi", "x".repeat(int(5000)), "😀 émoji ✓", "'\"\\", "line\nbreak", "", "  "]);
  const validEvent = (): unknown => {
    switch (int(6)) {
      case 0:
        return {
          human: { content: text(), ...(chance(0.3) && { metadata: { n: int(9), nested: { deep: [text()] } } }) },
        };
      case 1:
        return { ai: { content: text(), ...(chance(0.2) && { parts: [{ type: "text", text: text() }] }) } };
      case 2:
        return { reasoning: { content: text(), modelName: chance(0.5) ? "m" : null } };
      case 3:
        return { toolCall: { callId: `call_${int(30)}`, toolName: pick(["search", "", " "]), args: { q: text() } } };
      case 4:
        return { toolResult: { callId: `call_${int(30)}`, content: text(), isError: chance(0.2) } };
      default:
        return { system: { content: text(), createdAt: pick(["2024-02-29T12:00:00Z", "1999-12-31T23:59:59.999Z"]) } };
    }
  };
  const validEvents = () => Array.from({ length: int(4) + (chance(0.9) ? 1 : 0) }, validEvent);

  const mutations: (() => { query: string; variables: Record<string, unknown> })[] = [
    () => ({
      query: `mutation($input: CreateResponseInput!) { createResponse(input: $input) { __typename ... on Response { id } ... on Error { code } } }`,
      variables: {
        input: {
          ...(chance(0.6) && { dialogId: pick(known.dialogs) }),
          ...(chance(0.4) && { previousResponseId: pick(known.responses) }),
          input: validEvents(),
          ...(chance(0.5) && { output: validEvents() }),
          ...(chance(0.2) && { idempotencyKey: "key-" + int(20) }),
        },
      },
    }),
    () => ({
      query: `mutation($input: AppendEventsInput!) { appendEvents(input: $input) { __typename ... on Error { code } } }`,
      variables: {
        input: {
          responseId: pick(known.responses),
          events: validEvents(),
          ...(chance(0.3) && { expectedSeq: int(40) }),
        },
      },
    }),
    () => ({
      query: `mutation($input: CreateResponseInput!) { createResponse(input: $input) { __typename ... on Response { id } ... on Error { code } } }`,
      variables: {
        input: {
          ...(chance(0.5) && { dialogId: someId("dialog") }),
          ...(chance(0.5) && { previousResponseId: someId("response") }),
          input: events(),
          ...(chance(0.5) && { output: events() }),
          ...(chance(0.2) && { status: strangeValue() }),
          ...(chance(0.2) && { usage: { inputTokens: strangeValue() } }),
          ...(chance(0.2) && { metadata: strangeValue() }),
          ...(chance(0.2) && { idempotencyKey: chance(0.5) ? "key-" + int(20) : strangeValue() }),
        },
      },
    }),
    () => ({
      query: `mutation($input: AppendEventsInput!) { appendEvents(input: $input) { __typename ... on Error { code } } }`,
      variables: {
        input: {
          responseId: someId("response"),
          events: events(),
          ...(chance(0.3) && { expectedSeq: strangeValue() }),
        },
      },
    }),
    () => ({
      query: `mutation($input: CompleteResponseInput!) { completeResponse(input: $input) { __typename ... on Error { code } } }`,
      variables: {
        input: {
          responseId: someId("response"),
          status: pick(["COMPLETED", "FAILED", "IN_PROGRESS", "nope"]),
          error: strangeValue(),
        },
      },
    }),
    () => ({
      query: `mutation($input: InterruptResponseInput!) { interruptResponse(input: $input) { __typename ... on Error { code } } }`,
      variables: {
        input: {
          responseId: someId("response"),
          behavior: pick(["SAVE_PARTIAL", "SAVE_MARKED", "DISCARD", "x"]),
          partialText: strangeValue(),
        },
      },
    }),
    () => ({
      query: `mutation($input: UpdateDialogInput!) { updateDialog(input: $input) { __typename ... on Error { code } } }`,
      variables: { input: { id: someId("dialog"), title: strangeValue(), metadata: strangeValue() } },
    }),
    () => ({
      query: `mutation($input: CreateDialogInput!) { createDialog(input: $input) { __typename ... on Error { code } } }`,
      variables: { input: { title: strangeValue(), metadata: strangeValue() } },
    }),
  ];

  const queries: (() => string)[] = [
    () =>
      `{ dialog(id: ${JSON.stringify(someId("dialog"))}) { id lastSeq history(first: ${pick([0, 1, -1, 10, 100000])}) { totalMessages edges { cursor } } } }`,
    () =>
      `{ response(id: ${JSON.stringify(someId("response"))}) { id status context(after: ${JSON.stringify(pick(STRANGE_STRINGS))}) { totalMessages } } }`,
    () =>
      `{ dialogs(first: ${pick([1, 5, -5, 0, 2 ** 31 - 1])}, after: ${JSON.stringify(pick(STRANGE_STRINGS))}) { edges { node { id } } } }`,
    () => {
      // Each round trip event → response → dialog opens six selection sets.
      const rounds = int(6) + 1;
      const open = "history { edges { node { ... on BaseHistoryEvent { response { dialog { ".repeat(rounds);
      return `{ dialog(id: ${JSON.stringify(pick(known.dialogs))}) { ${open} id ${"} ".repeat(6 * rounds)} } }`;
    },
    () => `{ ${Array.from({ length: int(60) }, (_, i) => `a${i}: dialogs { totalCount }`).join(" ")} }`,
    () => "{".repeat(int(3000)) + "}".repeat(int(3000)),
    () => `query { ${"__typename ".repeat(int(8000))} }`,
    () => `{ dialog(id: 12) { id } }`,
    () => `{ nosuchfield }`,
    () => `mutation { deleteDialog(input: { id: ${JSON.stringify(pick(STRANGE_STRINGS))} }) { __typename } }`,
  ];

  // Lone surrogates cannot be percent-encoded; a client would send their replacement bytes.
  const encode = (text: string) =>
    encodeURIComponent(
      text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD"),
    );

  const post = (label: string, body: string, contentType = "application/json"): FuzzRequest => ({
    method: "POST",
    path: "/graphql",
    headers: { "content-type": contentType },
    body,
    label,
  });

  return (): FuzzRequest => {
    const roll = int(100);
    if (roll < 45) {
      const { query, variables } = pick(mutations)();
      return post(`mutation ${query.slice(9, 40)}`, JSON.stringify({ query, variables }));
    }
    if (roll < 70) {
      const query = pick(queries)();
      return post(`query ${query.slice(0, 40)}`, JSON.stringify({ query }));
    }
    if (roll < 80) {
      const body = pick([
        "{",
        "not json",
        '{"query": 12}',
        '{"query": null, "variables": "x"}',
        '{"query": "{ __typename }", "variables": [1,2]}',
        '{"query": "{ __typename }", "extensions": "x"}',
        '[{"query": "{ __typename }"}]',
        JSON.stringify({ query: "{ __typename }", operationName: 12 }),
        "\u0000\u0001\u0002",
        // Built as text: JSON.stringify itself would run out of stack on it.
        `{"query": "query($v: JSON) { __typename }", "variables": {"v": ${'{"a":'.repeat(5000)}1${"}".repeat(5000)}}}`,
      ]);
      return post(
        "malformed body",
        body,
        pick(["application/json", "text/plain", "application/graphql", "application/x-www-form-urlencoded"]),
      );
    }
    if (roll < 90) {
      const id = encode(someId("dialog"));
      const responseId = chance(0.5) ? `?response_id=${encode(someId("response"))}` : "";
      return {
        method: "GET",
        path: `/api/dialogs/${chance(0.1) ? "%zz%00" : id}/history${responseId}`,
        headers: {},
        label: "REST",
      };
    }
    const query = encode(pick(queries)());
    return {
      method: "GET",
      path: `/graphql?query=${query}&variables=${encodeURIComponent(pick(["{", "[]", "{}", "null"]))}`,
      headers: { "x-graphql-yoga-csrf": "1", accept: pick(["application/json", "text/event-stream", "*/*"]) },
      label: "GET",
    };
  };
}
