// Child process: asks GET /health of each of TARGET_URLS every INTERVAL_MS (in a process of its
// own, so the latencies are the server's, not a busy client's), each with a TIMEOUT_MS limit as a
// load balancer's check has. On `finish`: latencies per target and how many checks timed out.
import { summarize } from "../lib/stats.js";

const targets = process.env.TARGET_URLS!.split(",");
const intervalMs = Number(process.env.INTERVAL_MS ?? 100);
const timeoutMs = Number(process.env.TIMEOUT_MS ?? 2_000);
const latencies = targets.map(() => [] as number[]);
const failed = targets.map(() => 0);

async function check(index: number) {
  const start = performance.now();
  try {
    const response = await fetch(`${targets[index]}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer();
    if (response.ok) latencies[index]!.push(performance.now() - start);
    else failed[index]!++;
  } catch {
    failed[index]!++;
  }
}

const timer = setInterval(() => targets.forEach((_, i) => void check(i)), intervalMs);
process.on("message", (message: { type: string }) => {
  if (message.type !== "finish") return;
  clearInterval(timer);
  process.send!({
    type: "result",
    targets: targets.map((url, i) => ({ url, failed: failed[i], ...summarize(latencies[i]!) })),
  });
  setTimeout(() => process.exit(0), 100);
});
process.send!({ type: "started" });
