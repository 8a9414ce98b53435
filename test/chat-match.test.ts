// Matching a whole conversation to the stored chain it continues: every response keeps the hash of
// its context in the Chat Completions normal form (the write primitive sets it, in SQL, when the
// response finishes), and a request's prefix hashes, computed here, find the longest one in a
// single statement whatever the depth of the chain.
import { describe, expect, it } from "vitest";
import {
  ChatHashChain,
  chatHashHex,
  chatHashSeed,
  extendChatHash,
  normalMessageTexts,
} from "../src/formats/chat-context-hash.js";
import { requestEvents, hashedView } from "../src/responses-api/recorded-turn.js";
import { matchChatContext, matchPlainPrefixes, plainChatForms, plainPrefixHashes } from "../src/services/chat-match.js";
import { importMessages } from "../src/services/import-messages.js";
import { completeResponse } from "../src/services/response-lifecycle.js";
import { createResponse } from "../src/services/responses.js";
import { database, prisma, store } from "./support/database.js";
import { countStatements } from "./support/query-counter.js";

const TENANT = "tenant-match";
const eventsOf = (messages: unknown[]) => requestEvents("OPENAI_CHAT", messages, ["messages"]).map(hashedView);
const conversation = (turns: number, system = "You count.") => [
  { role: "system", content: system },
  ...Array.from({ length: turns }, (_, i) => [
    { role: "user", content: `After ${i}?` },
    { role: "assistant", content: `${i + 1}.` },
  ]).flat(),
];

async function importChat(messages: unknown[], tenantId = TENANT) {
  const result = await importMessages(store, { format: "OPENAI_CHAT", messages, tenantId });
  return result.responseIds;
}

describe("matchChatContext", () => {
  it("finds the tip of a 300-turn chain in one statement, leaving the new message as input", async () => {
    const messages = conversation(300);
    const ids = await importChat(messages);
    const request = [...messages, { role: "user", content: "And then?" }];
    const { result, statements } = await countStatements(() => matchChatContext(store, TENANT, eventsOf(request)));
    expect(result).toMatchObject({ previousResponseId: ids.at(-1), inputFrom: request.length - 1 });
    expect(statements).toHaveLength(1);

    // An edit halfway: the longest stored context before it.
    const edited = [...messages.slice(0, 201), { role: "user", content: "After 100, really?" }];
    const branch = await matchChatContext(store, TENANT, eventsOf(edited));
    expect(branch).toMatchObject({ previousResponseId: ids[99], inputFrom: 201 });
  });

  it("hashes each message once and probes a few hashes, at depth 30 as at depth 300", async () => {
    const matchCounted = async (request: unknown[]) => {
      const chain = new ChatHashChain(chatHashSeed(TENANT));
      const counted = await countStatements(() => matchChatContext(store, TENANT, eventsOf(request), null, chain));
      return { ...counted, hashed: chain.steps };
    };
    const shallow = conversation(30, "Thirty turns.");
    const deep = conversation(300, "Three hundred turns.");
    const [shallowIds, deepIds] = [await importChat(shallow), await importChat(deep)];
    const [atThirty, atThreeHundred] = [
      await matchCounted([...shallow, { role: "user", content: "Next?" }]),
      await matchCounted([...deep, { role: "user", content: "Next?" }]),
    ];
    expect(atThirty.result.previousResponseId).toBe(shallowIds.at(-1));
    expect(atThreeHundred.result.previousResponseId).toBe(deepIds.at(-1));
    // One hash step a message before the new one (hashing each prefix anew would be 601 · 602 / 2),
    // and one statement of the same few hashes whatever the depth.
    expect([atThirty.hashed, atThreeHundred.hashed]).toEqual([shallow.length, deep.length]);
    expect(atThreeHundred.statements).toHaveLength(1);
    expect(atThreeHundred.bytes).toEqual(atThirty.bytes);

    // A changed first message matches nothing (every prefix differs): the few longest, then the rest.
    const changed = [
      { role: "system", content: "Three hundred turns!" },
      ...deep.slice(1),
      { role: "user", content: "?" },
    ];
    const unmatched = await matchCounted(changed);
    expect(unmatched.result).toEqual({ previousResponseId: null, dialogId: null, inputFrom: 0 });
    expect([unmatched.hashed, unmatched.statements.length]).toEqual([deep.length, 2]);
  });

  it("keeps each tenant's chains to itself", async () => {
    const messages = conversation(3, "Tenant-scoped.");
    await importChat(messages);
    const request = [...messages, { role: "user", content: "Next?" }];
    expect((await matchChatContext(store, TENANT, eventsOf(request))).previousResponseId).not.toBeNull();
    expect(await matchChatContext(store, "another-tenant", eventsOf(request))).toMatchObject({
      previousResponseId: null,
      inputFrom: 0,
    });
  });

  it("reads what a client sends back the way it was sent out: key order, spacing, parts, developer", async () => {
    const stored = [
      { role: "developer", content: "Use tools." },
      {
        role: "user",
        content: [
          { type: "text", text: "Weather in " },
          { type: "text", text: "Oslo?" },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo","unit":"C"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "12" },
      { role: "assistant", content: "12°C." },
    ];
    const ids = await importChat(stored);
    const resent = [
      { role: "system", content: "Use tools." },
      { role: "user", content: "Weather in Oslo?" },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "weather", arguments: '{ "unit": "C", "city": "Oslo" }' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: [{ type: "text", text: "12" }] },
      { role: "assistant", content: "12°C." },
      { role: "user", content: "Thanks." },
    ];
    expect(await matchChatContext(store, TENANT, eventsOf(resent))).toMatchObject({
      previousResponseId: ids.at(-1),
      inputFrom: 6, // an event index: the resent assistant message is an empty text and a tool call
    });
  });

  it("stores the hash the application computes, when a turn begun in progress finishes", async () => {
    const messages = [{ role: "user", content: "Hash me." }];
    const begun = await createResponse(store, { input: [{ human: { content: "Hash me." } }] }, TENANT);
    const read = () =>
      prisma.response.findUniqueOrThrow({ where: { id: begun.responseId }, select: { chatHash: true } });
    expect((await read()).chatHash).toBeNull();
    const [continued] = await Promise.all([
      createResponse(
        store,
        {
          previousResponseId: begun.responseId,
          input: [{ human: { content: "Too soon." } }],
          output: [{ ai: { content: "!" } }],
        },
        TENANT,
      ),
    ]);
    await completeResponse(store, { responseId: begun.responseId });
    // Hashed from the events it holds, in SQL, exactly as the request side hashes the same messages.
    expect((await read()).chatHash).toBe(
      extendChatHash(chatHashSeed(TENANT), normalMessageTexts(eventsOf(messages))).toString("hex"),
    );
    // A turn that continued it while it was in progress has no hash: its context was not settled.
    const child = await prisma.response.findUniqueOrThrow({
      where: { id: continued.responseId },
      select: { chatHash: true },
    });
    expect(child.chatHash).toBeNull();
  });

  it("matches a chat of plain messages from the messages as sent, as their events would be matched", async () => {
    const messages = [
      { role: "developer", content: 'Quote "this", a \\ and a \u2028 line separator.' },
      { role: "user", content: "" },
      { role: "assistant", content: "Ünïcödé, 𝄞 and 🙂.", tool_calls: null, reasoning_content: null },
      { role: "user", content: "x".repeat(5_000), name: "a key the normal form leaves out" },
      { role: "system", content: "\u0007 and \t" },
      { role: "assistant", content: "" },
    ];
    const ids = await importChat(messages);
    const request = [...messages, { role: "user", content: "Next?" }];
    const forms = plainChatForms(request)!;
    expect(forms).toHaveLength(request.length);
    const chain = new ChatHashChain(chatHashSeed(TENANT));
    const plain = await matchPlainPrefixes(store, TENANT, plainPrefixHashes(request, forms, chain), null);
    expect(plain).toEqual(await matchChatContext(store, TENANT, eventsOf(request)));
    expect(plain).toMatchObject({ previousResponseId: ids.at(-1), inputFrom: messages.length });
    expect(chain.steps).toBe(messages.length);

    // Any message that is more than text is not plain: such a request is read into events.
    for (const other of [
      { role: "user", content: [{ type: "text", text: "parts" }] },
      { role: "assistant", content: null, tool_calls: [] },
      { role: "assistant", content: "", tool_calls: [{ id: "c", type: "function", function: { name: "f" } }] },
      { role: "assistant", content: "", reasoning_content: "thought" },
      { role: "tool", tool_call_id: "c", content: "12" },
      { role: "function", content: "old" },
      ["user", "a list"],
      null,
    ]) {
      expect(plainChatForms([...messages, other])).toBeNull();
    }
  });

  it("has one hash step: the chain, extendChatHash and the SQL chatContextHash give the same hashes", async () => {
    const texts = normalMessageTexts(
      eventsOf([
        { role: "system", content: "Ünïcödé 𝄞" },
        { role: "user", content: "y".repeat(9_000) },
        {
          role: "assistant",
          content: "",
          tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{"b":1,"a":2}' } }],
        },
        { role: "tool", tool_call_id: "c1", content: "done" },
      ]),
    );
    const chain = new ChatHashChain(chatHashSeed(TENANT));
    const chained = texts.map((text) => chatHashHex(chain.extend(text))).at(-1);
    const extended = extendChatHash(chatHashSeed(TENANT), texts).toString("hex");
    const [row] = await database.query<{ hash: string }>(`SELECT "chatContextHash"(NULL, $1, $2::text[]) AS hash`, [
      TENANT,
      texts,
    ]);
    expect(new Set([chained, extended, row!.hash])).toEqual(new Set([chained]));
    expect(chained).toMatch(/^[0-9a-f]{64}$/);
  });
});
