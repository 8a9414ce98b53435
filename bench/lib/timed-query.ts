// Queries timed as a client in another process sees them (bench/load/http-load.ts): one client's
// latency, many clients' throughput, dialogql and its peer interleaved, and a small query's
// latency while big ones load the server.
import path from "node:path";
import { runTs } from "./child.js";
import { spawnIpcChild } from "./ipc-child.js";
import { percentile, summarize } from "./stats.js";

const load = path.join(path.dirname(new URL(import.meta.url).pathname), "../load/http-load.ts");

export interface LoadRun {
  url: string;
  query: string;
  variables?: Record<string, unknown>;
  /** Clients asking at once (1). */
  concurrency?: number;
  /** Stop after this many timed answers… */
  iterations?: number;
  /** …or after this long. */
  durationMs?: number;
  /** Untimed answers first (3). */
  warmup?: number;
  /** Probe only: pause between two questions (10 ms). */
  pauseMs?: number;
}

/** Latencies in ms; `starts` and the run's bounds are epoch milliseconds. */
export interface RunResult {
  samples: number[];
  starts: number[];
  startedAt: number;
  endedAt: number;
}

export const measured = (run: RunResult) => ({
  ...summarize(run.samples),
  /** Answers per second over the run. */
  throughput: (run.samples.length / (run.endedAt - run.startedAt)) * 1000,
});
export type Measured = ReturnType<typeof measured>;

export const runLoads = (runs: LoadRun[]) => runTs<RunResult[]>(load, { RUNS: JSON.stringify(runs) });

export async function timeQuery(url: string, query: string, variables: Record<string, unknown>, iterations: number) {
  const [result] = await runLoads([{ url, query, variables, iterations }]);
  return summarize(result!.samples);
}

/**
 * Each run `reps` times, interleaved (a b a b a b), so a slow moment of a shared machine hits both
 * sides; every statistic is the median of the repetitions'.
 */
export async function interleaved<const R extends LoadRun[]>(
  reps: number,
  runs: R,
): Promise<{ [K in keyof R]: Measured }> {
  const results = await runLoads(Array.from({ length: reps }, () => runs).flat());
  const medians = runs.map((_, i) => {
    const mine = results.filter((_, j) => j % runs.length === i).map(measured);
    const median = (pick: (m: Measured) => number) => percentile(mine.map(pick), 50);
    return {
      count: mine.reduce((sum, m) => sum + m.count, 0),
      p50: median((m) => m.p50),
      p99: median((m) => m.p99),
      max: Math.max(...mine.map((m) => m.max)),
      throughput: median((m) => m.throughput),
    };
  });
  return medians as { [K in keyof R]: Measured };
}

/** `heavy` with `probe` asked alongside from another process; the probe's answers started while `heavy` ran. */
export async function underLoad(heavy: LoadRun, probe: LoadRun) {
  const prober = spawnIpcChild(load, { RUNS: JSON.stringify([probe]), PROBE: "1" });
  await prober.next("ready");
  const [result] = await runLoads([{ ...heavy, warmup: 0 }]);
  prober.send({ type: "stop" });
  const probed = await prober.next<{ samples: number[]; starts: number[] }>("result");
  const during = probed.samples.filter(
    (_, i) => probed.starts[i]! >= result!.startedAt && probed.starts[i]! <= result!.endedAt,
  );
  return { heavy: measured(result!), probe: summarize(during) };
}
