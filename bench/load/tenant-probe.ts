// The soak's tenant-B probe (bench/soak.ts), in a process of its own so that its times are the
// server's and not the soak client's event loop (which drives all of tenant A's load): reads one
// dialog's history for DURATION_MS, one read every 20 ms, and reports the read times.
//   TARGET_URL, API_KEY, DIALOG_ID, DURATION_MS
import { monitorEventLoopDelay } from "node:perf_hooks";
import { emit } from "../lib/report.js";
import { percentile } from "../lib/stats.js";

const url = process.env.TARGET_URL!;
const key = process.env.API_KEY!;
const dialogId = process.env.DIALOG_ID!;
const until = Date.now() + Number(process.env.DURATION_MS);
const READ = `query($d: ID!) { dialog(id: $d) { history(first: 20) { edges { node { ... on BaseHistoryEvent { seq } } } } } }`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function read(): Promise<boolean> {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ query: READ, variables: { d: dialogId } }),
  });
  const answer = (await response.json()) as { errors?: unknown[] };
  return !answer.errors;
}

// The probe's own loop delay: if it is not small, the machine (not the server) slowed the probe.
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
const times: number[] = [];
let errors = 0;
while (Date.now() < until) {
  const started = performance.now();
  // A failed read (refused, reset, not JSON) is counted with its time, and the probe goes on.
  const ok = await read().catch(() => false);
  times.push(performance.now() - started);
  if (!ok) errors++;
  await sleep(20);
}
emit([
  {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    count: times.length,
    errors,
    loopDelayP99Ms: delay.percentile(99) / 1e6,
  } as any,
]);
