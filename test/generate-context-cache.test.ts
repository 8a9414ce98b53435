// A generated turn that continues a response kept in memory (src/history-writes/context-cache.ts)
// reads none of its history, yet gives the model the whole history; a response nobody kept here
// is read whole once, then kept; a deleted response is not continued from memory.
import { beforeAll, describe, expect, it } from "vitest";
import { createContextCache } from "../src/history-writes/context-cache.js";
import type { StoredEvent } from "../src/formats/stored-event.js";
import { importMessages } from "../src/services/import-messages.js";
import { onStatement } from "../src/statement-log.js";
import { store } from "./support/database.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { keptTurn } from "./support/kept-turn.js";

let g: GeneratingServer;
beforeAll(async () => {
  g = await startGeneratingServer();
  g.upstream.fallback = { output: [{ text: "An answer." }] };
});

// Every statement the process sends (the server runs in this process), in order.
const statements: string[] = [];
onStatement((sql) => statements.push(sql));
/** The reads of a whole context since statement `from` (the recursive walk of its segments). */
const historyReads = (from: number) => statements.slice(from).filter((sql) => sql.includes("WITH RECURSIVE"));
/** A stored turn of `g`, once its context is kept. */
const turn = (input: string, previousResponseId?: string) => keptTurn(g, input, previousResponseId);

const sentMessages = () => g.upstream.requests.at(-1)!.body.messages!.map((m) => `${m.role}: ${m.content}`);

describe("the context of chain tips kept in memory", () => {
  it("gives the model the whole history while reading none of it", async () => {
    const first = await turn("One");
    const second = await turn("Two", first.id);
    const from = statements.length;
    await turn("Three", second.id);
    expect(historyReads(from)).toEqual([]);
    expect(sentMessages()).toEqual([
      "user: One",
      "assistant: An answer.",
      "user: Two",
      "assistant: An answer.",
      "user: Three",
    ]);
  });

  it("reads a response nobody kept here whole once, then keeps it", async () => {
    // Written by a client, not generated: this instance never kept its context.
    const imported = await importMessages(store, {
      format: "OPENAI_RESPONSES",
      messages: [
        { role: "user", content: "Written by hand" },
        { role: "assistant", content: "And answered by hand" },
      ],
      tenantId: "tenant-a",
    });
    const handWritten = imported.responseIds.at(-1);

    let from = statements.length;
    await turn("Once more", handWritten!);
    expect(historyReads(from)).toHaveLength(1);
    from = statements.length;
    await turn("And again", handWritten!);
    expect(historyReads(from)).toEqual([]);
    expect(sentMessages()).toEqual(["user: Written by hand", "assistant: And answered by hand", "user: And again"]);
  });

  it("does not continue a deleted response from memory", async () => {
    const first = await turn("Keep me");
    const tip = await turn("Then delete me", first.id);
    await g.openai.responses.delete(tip.id);
    await expect(
      g.openai.responses.create({ model: "stand-in-1", input: "After", previous_response_id: tip.id }),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describe("the context cache's bound", () => {
  // The cache keeps contexts as they are given: their events' fields do not matter here.
  const events = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ type: "HUMAN", content: String(i) }) as StoredEvent);

  it("lets the least recently used contexts go first, and drops a dialog's contexts", () => {
    const cache = createContextCache(10);
    cache.keep("a", "d1", events(4));
    cache.keep("b", "d1", events(4));
    expect(cache.get("a")).toHaveLength(4); // a is now the most recently used
    cache.keep("c", "d2", events(4));
    expect([cache.get("a")?.length, cache.get("b"), cache.get("c")?.length]).toEqual([4, undefined, 4]);
    expect(cache.size).toBe(8);
    cache.keep("huge", "d2", events(11)); // larger than the whole bound: not kept
    expect(cache.get("huge")).toBeUndefined();
    cache.dropDialog("d1");
    expect([cache.get("a"), cache.size]).toEqual([undefined, 4]);
  });
});
