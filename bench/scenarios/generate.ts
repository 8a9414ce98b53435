// Scenario: what dialogql adds to a streamed model turn, beside what other things in between add.
// The upstream stand-in (test/support/upstream-stand-in.ts, Chat Completions) waits 100 ms before
// its first chunk, then streams 9 more chunks 5 ms apart. At each history depth (turns of ~280
// characters) and with 1 and 16 clients at once, interleaved round by round, the same turn goes:
// - directly to the upstream, the whole history as messages (the baseline);
// - through a minimal pass-through proxy (bench/lib/pass-through-proxy.ts, stores nothing);
// - through the Portkey AI gateway (bench/lib/portkey.ts, stores nothing), when it installs;
// - through dialogql's POST /v1/responses with previous_response_id, which reads the history,
//   keeps the turn and streams it to watchers (a process of its own: bench/load/generate-server.ts);
// - through dialogql's recorded proxy door, POST /v1/chat/completions with the whole history as
//   messages, as a Chat Completions client sends it: the messages are matched to the stored chain
//   (src/services/chat-match.ts) and the turn is kept as a branch of it (issue 26).
// Figures: first-delta and done overheads (a path's percentile minus the direct call's), turns per
// second at 16 clients against the direct call's, and each dialogql door's CPU per turn.
// To measure one lever alone: GENERATE_DEPTHS=0,1000 and GENERATE_ROUNDS=1:20,16:5 narrow the run;
// GENERATE_PATHS="dialogql chat" keeps only the paths named (and the direct call, the baseline);
// GENERATE_CPU_PROF=<file> writes a CPU profile of the dialogql process while it serves the turns
// (not while it seeds its chains) to that .cpuprofile file.
import path from "node:path";
import { spawnIpcChild } from "../lib/ipc-child.js";
import { startPassThroughProxy } from "../lib/pass-through-proxy.js";
import { startPortkey } from "../lib/portkey.js";
import { emit, type Figure, smoke } from "../lib/report.js";
import { percentile } from "../lib/stats.js";
import { chainHistory } from "../load/generate-history.js";
import { startUpstreamStandIn } from "../../test/support/upstream-stand-in.js";

const CONVERSATIONS = 16;
const DEPTHS = process.env.GENERATE_DEPTHS?.split(",").map(Number) ?? (smoke ? [0, 20] : [0, 50, 1_000]);
/** Rounds per (depth, clients): each round sends `clients` turns at once on every path. */
const ROUNDS: Record<number, number> = process.env.GENERATE_ROUNDS
  ? Object.fromEntries(process.env.GENERATE_ROUNDS.split(",").map((pair) => pair.split(":").map(Number)))
  : smoke
    ? { 1: 4, 16: 2 }
    : { 1: 40, 16: 5 };
const CLIENTS = Object.keys(ROUNDS).map(Number);

const upstream = await startUpstreamStandIn();
upstream.fallback = {
  output: [{ text: "A reply of a few dozen characters, streamed in ten chunks or so." }],
  chunkChars: 7,
  firstChunkDelayMs: 100,
  chunkDelayMs: 5,
  usage: { input: 100, output: 20 },
};
const proxy = await startPassThroughProxy(upstream.url);
const portkey = smoke ? null : await startPortkey();
const dialogql = spawnIpcChild(path.resolve(import.meta.dirname, "../load/generate-server.ts"), {
  UPSTREAM_URL: upstream.url,
  CONVERSATIONS: String(CONVERSATIONS),
  DEPTHS: DEPTHS.join(","),
  LOG_LEVEL: "warn",
});
const { url: dialogqlUrl, tips } = await dialogql.next<{ url: string; tips: Record<number, (string | null)[]> }>(
  "ready",
);
/** The dialogql process's CPU time so far, and the database statements it has sent. */
const serverUse = async () => (
  dialogql.send({ type: "cpu" }),
  dialogql.next<{ ms: number; systemMs: number; faults: number; statements: number; gcMs: number }>("cpu")
);

interface Timing {
  firstDelta: number;
  done: number;
}

/** Posts a streamed request and reads it to the end, noting when the first text delta arrives. */
async function timed(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  isTextDelta: (chunk: string) => boolean,
) {
  const start = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  let firstDelta = NaN;
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (Number.isNaN(firstDelta) && isTextDelta(decoder.decode(chunk))) firstDelta = performance.now() - start;
  }
  return { firstDelta, done: performance.now() - start } satisfies Timing;
}

type Path = (depth: number, c: number) => Promise<Timing>;
const chatText = (chunk: string) => /"content":"[^"]/.test(chunk);
const chatBody = (depth: number, c: number) => ({
  model: "stand-in-1",
  stream: true,
  stream_options: { include_usage: true },
  messages: [...chainHistory(0, depth, c), { role: "user", content: `Round question for ${c}` }],
});
const allPaths: Record<string, Path> = {
  direct: (depth, c) => timed(`${upstream.url}/chat/completions`, {}, chatBody(depth, c), chatText),
  proxy: (depth, c) => timed(`${proxy.url}/chat/completions`, {}, chatBody(depth, c), chatText),
  ...(portkey && {
    portkey: (depth: number, c: number) =>
      timed(
        `${portkey.url}/chat/completions`,
        { "x-portkey-provider": "openai", "x-portkey-custom-host": upstream.url, authorization: "Bearer stand-in" },
        chatBody(depth, c),
        chatText,
      ),
  }),
  dialogql: (depth, c) =>
    timed(
      `${dialogqlUrl}/v1/responses`,
      {},
      {
        model: "stand-in-1",
        previous_response_id: tips[depth]![c],
        input: `Round question for ${c}`,
        stream: true,
        store: true,
      },
      (chunk) => chunk.includes("response.output_text.delta"),
    ),
  "dialogql chat": (depth, c) => timed(`${dialogqlUrl}/v1/chat/completions`, {}, chatBody(depth, c), chatText),
};
const named = process.env.GENERATE_PATHS?.split(",");
const paths = Object.fromEntries(
  Object.entries(allPaths).filter(([name]) => !named || name === "direct" || named.includes(name)),
);
/** The paths that go through the dialogql process, whose CPU and statements are counted. */
const doors = ["dialogql", "dialogql chat"] as const;
const doorLabel: Record<(typeof doors)[number], string> = {
  dialogql: "",
  "dialogql chat": ", recorded Chat Completions door",
};

interface Samples {
  timings: Timing[];
  wallMs: number;
  cpuMs: number;
  systemMs: number;
  faults: number;
  statements: number;
  gcMs: number;
}

/** Interleaved rounds: each round sends `clients` turns at once on every path, one path after another. */
async function measure(depth: number, clients: number, rounds: number) {
  const samples: Record<string, Samples> = {};
  for (const name of Object.keys(paths))
    samples[name] = {
      timings: [],
      wallMs: 0,
      cpuMs: 0,
      systemMs: 0,
      faults: 0,
      statements: 0,
      gcMs: 0,
    };
  for (let round = -1; round < rounds; round++) {
    for (const [name, call] of Object.entries(paths)) {
      const before = (doors as readonly string[]).includes(name) ? await serverUse() : null;
      const start = performance.now();
      const timings = await Promise.all(Array.from({ length: clients }, (_, c) => call(depth, c)));
      if (round < 0) continue; // the first round warms every path
      samples[name]!.wallMs += performance.now() - start;
      samples[name]!.timings.push(...timings);
      if (before) {
        const after = await serverUse();
        samples[name]!.cpuMs += after.ms - before.ms;
        samples[name]!.systemMs += after.systemMs - before.systemMs;
        samples[name]!.faults += after.faults - before.faults;
        samples[name]!.statements += after.statements - before.statements;
        samples[name]!.gcMs += after.gcMs - before.gcMs;
      }
    }
  }
  return samples;
}

const figures: Figure[] = [];
const at = (metric: keyof Timing, p: number, s: Samples) =>
  percentile(
    s.timings.map((t) => t[metric]),
    p,
  );
for (const depth of DEPTHS) {
  for (const clients of CLIENTS) {
    const samples = await measure(depth, clients, ROUNDS[clients]!);
    const direct = samples.direct!;
    const where = `depth ${depth}, ${clients} client${clients > 1 ? "s" : ""}`;
    const overheads = (metric: keyof Timing, p: number) =>
      Object.entries(samples)
        .filter(([name]) => name !== "direct")
        .map(([name, s]) => `${name} +${(at(metric, p, s) - at(metric, p, direct)).toFixed(1)}`)
        .join(", ");
    const overheadFigure = (door: (typeof doors)[number], metric: keyof Timing, p: number, target?: number): Figure => {
      const overhead = at(metric, p, samples[door]!) - at(metric, p, direct);
      return {
        scenario: "generate",
        metric: `${metric === "firstDelta" ? "first-delta" : "done"} overhead p${p} (${where}${doorLabel[door]})`,
        value: Number(overhead.toFixed(2)),
        unit: "ms",
        baseline: Number(at(metric, p, direct).toFixed(2)),
        peer: "direct call",
        ...(target !== undefined && { target: `≤ ${target} ms`, met: overhead <= target, goal: true }),
        note: `overheads (ms): ${overheads(metric, p)}`,
      };
    };
    const deep = depth === DEPTHS.at(-1);
    for (const door of doors) {
      const s = samples[door];
      if (!s) continue;
      if (clients === 1) {
        figures.push(overheadFigure(door, "firstDelta", 50, 5), overheadFigure(door, "done", 50));
        const turns = s.timings.length;
        const cpu = s.cpuMs / turns;
        figures.push({
          scenario: "generate",
          metric: `server CPU per generated turn (depth ${depth}${doorLabel[door]})`,
          value: Number(cpu.toFixed(2)),
          unit: "ms",
          ...(deep && { target: "≤ 4 ms", met: cpu <= 4, goal: true }),
          note:
            `${(s.statements / turns).toFixed(1)} database statements per turn, ${(s.gcMs / turns).toFixed(1)} ms of GC pauses per turn, ` +
            `${(s.systemMs / turns).toFixed(1)} ms of it in the kernel, ${Math.round(s.faults / turns)} pages first touched`,
        });
      } else {
        figures.push(
          overheadFigure(door, "firstDelta", 50, deep ? 10 : undefined),
          overheadFigure(door, "firstDelta", 99, deep ? 40 : undefined),
          overheadFigure(door, "done", 50, deep ? 20 : undefined),
          overheadFigure(door, "done", 99),
        );
        const rate = (samples: Samples) => samples.timings.length / (samples.wallMs / 1000);
        const ratio = rate(s) / rate(direct);
        figures.push({
          scenario: "generate",
          metric: `turns per second (${where}${doorLabel[door]})`,
          value: Number(rate(s).toFixed(1)),
          unit: "turns/s",
          baseline: Number(rate(direct).toFixed(1)),
          ratio: Number(ratio.toFixed(2)),
          peer: "direct call",
          ...(deep && { target: "ratio ≥ 0.9", met: ratio >= 0.9, goal: true }),
          note: Object.entries(samples)
            .map(([name, path]) => `${name} ${rate(path).toFixed(1)}`)
            .join(", "),
        });
      }
    }
  }
}

dialogql.send({ type: "stop" });
await dialogql.next("stopped");
portkey?.close();
await proxy.close();
await upstream.close();
emit(figures);
