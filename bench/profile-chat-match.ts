// Times what the Chat Completions door does before a turn can start, for the request of the
// generate scenario at depth 1,000 (2,001 messages, ~320 KB): the body parsed; the plain-chat path
// (plainChatForms, plainPrefixHashes, matchPlainPrefixes: hashed from the messages as sent); and the events path (its
// messages turned into events, and matchChatContext: the normal form, the prefix hashes and the
// probe of the stored chain), each p50 and min over 80 requests after 20 of warm-up (issue 26).
// `flock /work/helpers/measure.lock npx tsx bench/profile-chat-match.ts` with BENCH_DATABASE_URL set
// (a fresh database on that server, dropped afterwards; embedded PGlite without it). DEPTH=n changes the depth.
import { freshDatabase } from "./lib/databases.js";
import { chainHistory } from "./load/generate-history.js";
import { DEVELOPMENT_TENANT } from "../src/auth/authenticator.js";
import { applyMigrations } from "../src/db/migrate.js";
import { ChatHashChain, chatHashSeed, extendChatHash, normalMessages } from "../src/formats/chat-context-hash.js";
import { PerformanceObserver } from "node:perf_hooks";
import type { TenantScope } from "../src/auth/tenant-scope.js";
import type { StoredTurnsDeps } from "../src/generation/turn-sink.js";
import { hashedView, placeInChain, requestEvents, turnMessages } from "../src/responses-api/recorded-turn.js";
import { matchChatContext, matchPlainPrefixes, plainChatForms, plainPrefixHashes } from "../src/services/chat-match.js";
import { importMessages } from "../src/services/import-messages.js";

const DEPTH = Number(process.env.DEPTH ?? 1_000);
const bench = await freshDatabase(process.env.BENCH_DATABASE_URL);
Object.assign(process.env, bench.env);
const { store, database, closeDatabase } = await import("./lib/store.js");

try {
  await applyMigrations(database);
  let tip: string | null = null;
  for (let from = 0; from < DEPTH; from += 400) {
    const messages = chainHistory(from, Math.min(400, DEPTH - from));
    const imported = await importMessages(store, {
      format: "OPENAI_RESPONSES",
      messages,
      previousResponseId: tip,
      tenantId: DEVELOPMENT_TENANT,
    });
    tip = imported.responseIds.at(-1)!;
  }
  const body = JSON.stringify({ messages: [...chainHistory(0, DEPTH), { role: "user", content: "Round question" }] });

  const times = new Map<string, number[]>();
  async function timed<T>(name: string, step: () => T | Promise<T>): Promise<T> {
    const started = performance.now();
    const result = await step();
    times.set(name, [...(times.get(name) ?? []), performance.now() - started]);
    return result;
  }
  for (let round = 0; round < 100; round++) {
    const { messages } = await timed("body parsed", () => JSON.parse(body) as { messages: unknown[] });
    // The path a chat of plain messages takes (recorded-turn.ts): no events before the match.
    const forms = await timed("plainChatForms", () => plainChatForms(messages));
    const plain = await timed("matchPlainPrefixes", () =>
      matchPlainPrefixes(
        store,
        DEVELOPMENT_TENANT,
        plainPrefixHashes(messages, forms!, new ChatHashChain(chatHashSeed(DEVELOPMENT_TENANT))),
        null,
      ),
    );
    if (plain.previousResponseId !== tip) throw new Error(`matched ${plain.previousResponseId}, not the tip ${tip}`);
    await timed("  its prefix hashes", () =>
      plainPrefixHashes(messages, forms!, new ChatHashChain(chatHashSeed(DEVELOPMENT_TENANT))),
    );
    // The path of any other request: every message read into events first.
    const events = await timed("messages → events", () => requestEvents("OPENAI_CHAT", messages, ["messages"]));
    const views = await timed("hashedView", () => events.map(hashedView));
    const match = await timed("matchChatContext", () => matchChatContext(store, DEVELOPMENT_TENANT, views));
    if (match.previousResponseId !== tip) throw new Error(`matched ${match.previousResponseId}, not the tip ${tip}`);
    // Its parts, again on their own.
    const normal = await timed("  its normal form", () => normalMessages(views).filter((m) => m.end < views.length));
    await timed("  its prefix hashes ", () =>
      extendChatHash(
        chatHashSeed(DEVELOPMENT_TENANT),
        normal.map((message) => message.text),
      ),
    );
    if (round < 20) times.clear();
  }
  console.log(`${body.length} characters, ${DEPTH * 2 + 1} messages:`);
  for (const [name, samples] of times) {
    const sorted = samples.sort((a, b) => a - b);
    const p50 = sorted[sorted.length >> 1]!;
    console.log(`${name.padEnd(20)} p50 ${p50.toFixed(2)} ms, min ${sorted[0]!.toFixed(2)} ms`);
  }

  // The door's whole placement of a request (body text → the turn's place and input), 16 requests
  // at once as 16 clients send them, the two paths in alternate batches: CPU a request (this
  // process's, V8's GC threads included) and the main thread's GC pauses, which a per-step timer
  // does not see (what a request keeps alive across its awaits is copied by the others' young GCs).
  let gcMs = 0;
  new PerformanceObserver((list) => list.getEntries().forEach((entry) => (gcMs += entry.duration))).observe({
    entryTypes: ["gc"],
  });
  const deps = { store } as StoredTurnsDeps;
  const scope = { tenantId: DEVELOPMENT_TENANT } as TenantScope;
  const request = new Request("http://localhost/v1/chat/completions");
  const reread = () => (JSON.parse(body) as { messages: unknown[] }).messages;
  const place = async (plain: boolean) => {
    const { messages } = JSON.parse(body) as { messages: unknown[] };
    const matching = plain ? { tenantId: DEVELOPMENT_TENANT, reread } : null;
    const placed = await placeInChain(
      deps,
      scope,
      turnMessages("OPENAI_CHAT", messages, ["messages"], matching),
      request,
    );
    if (placed.previousResponseId !== tip || placed.input.length !== 1) throw new Error("not placed after the tip");
  };
  const use = { events: { cpu: 0, gc: 0, n: 0 }, plain: { cpu: 0, gc: 0, n: 0 } };
  for (let batch = 0; batch < 60; batch++) {
    const path = batch % 2 ? "plain" : "events";
    const [cpu, gc] = [process.cpuUsage(), gcMs];
    await Promise.all(Array.from({ length: 16 }, () => place(path === "plain")));
    await new Promise((resolve) => setTimeout(resolve, 20)); // the GC entries of the batch arrive
    if (batch < 10) continue;
    const spent = process.cpuUsage(cpu);
    use[path].cpu += (spent.user + spent.system) / 1000;
    use[path].gc += gcMs - gc;
    use[path].n += 16;
  }
  for (const [path, { cpu, gc, n }] of Object.entries(use)) {
    console.log(
      `placed, ${path} path, 16 at once: ${(cpu / n).toFixed(2)} ms CPU a request, ${(gc / n).toFixed(2)} ms of GC pauses`,
    );
  }
} finally {
  await closeDatabase();
  await bench.drop();
}
