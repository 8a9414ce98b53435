// Child process: GraphQL queries over HTTP from a process of its own, so the clients' fetch and
// JSON parsing run on their own event loop rather than the server's. RUNS is a list of runs done
// one after another (the bench interleaves dialogql and its peer this way): each has CONCURRENCY
// clients asking the same query back to back until ITERATIONS answers or DURATION_MS, after a
// few untimed ones. Every answer is parsed and checked, as a real client would.
// With PROBE=1 (an IPC child) it asks one query every few milliseconds until told to stop, to
// time a small query while another process loads the server with big ones.
import { graphql } from "../lib/graphql-client.js";
import { emit } from "../lib/report.js";
import type { LoadRun, RunResult } from "../lib/timed-query.js";

const now = () => performance.timeOrigin + performance.now();

async function run({ url, query, variables, concurrency = 1, iterations, durationMs, warmup = 3 }: LoadRun) {
  for (let i = 0; i < warmup; i++) await graphql(url, query, variables);
  const samples: number[] = [];
  const starts: number[] = [];
  let started = 0;
  const startedAt = now();
  const deadline = durationMs === undefined ? Infinity : startedAt + durationMs;
  const more = () => (iterations === undefined || started < iterations) && now() < deadline;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (more()) {
        started++;
        const start = now();
        await graphql(url, query, variables);
        starts.push(start);
        samples.push(now() - start);
      }
    }),
  );
  return { samples, starts, startedAt, endedAt: now() } satisfies RunResult;
}

if (process.env.PROBE === "1") {
  const probe: LoadRun = JSON.parse(process.env.RUNS!)[0];
  let stopping = false;
  process.on("message", (message: { type: string }) => void (message.type === "stop" && (stopping = true)));
  await run({ ...probe, iterations: 3 }); // warm, then tell the parent it may start the load
  process.send!({ type: "ready" });
  const samples: number[] = [];
  const starts: number[] = [];
  while (!stopping) {
    const start = now();
    await graphql(probe.url, probe.query, probe.variables);
    starts.push(start);
    samples.push(now() - start);
    await new Promise((resolve) => setTimeout(resolve, probe.pauseMs ?? 10));
  }
  process.send!({ type: "result", samples, starts });
  process.disconnect();
} else {
  const results: RunResult[] = [];
  for (const load of JSON.parse(process.env.RUNS!) as LoadRun[]) results.push(await run(load));
  emit(results as never);
}
