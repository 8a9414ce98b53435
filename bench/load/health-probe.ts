// Child process: asks GET /health of each of TARGET_URLS every INTERVAL_MS (in a process of its
// own, so the latencies are the server's, not a busy client's), each with a TIMEOUT_MS limit as a
// load balancer's check has. NEW_CONNECTION=1 opens a connection for each check, as HAProxy's
// checks do (a kept-alive connection does not wait behind a storm's new connections, so it can
// answer fast while the load balancer's checks time out). On `finish`: latencies per target and
// how many checks timed out.
import http from "node:http";
import { summarize } from "../lib/stats.js";

const targets = process.env.TARGET_URLS!.split(",");
const intervalMs = Number(process.env.INTERVAL_MS ?? 100);
const timeoutMs = Number(process.env.TIMEOUT_MS ?? 2_000);
const latencies = targets.map(() => [] as number[]);
const failed = targets.map(() => 0);
const newConnection = process.env.NEW_CONNECTION === "1";

/** GET /health on a connection of its own: its status, or a failure after TIMEOUT_MS. */
function checkOnNewConnection(url: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${url}/health`, { agent: false, timeout: timeoutMs }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode === 200));
    });
    const timer = setTimeout(() => request.destroy(new Error("timed out")), timeoutMs);
    request.on("close", () => clearTimeout(timer));
    request.on("error", reject);
  });
}

async function check(index: number) {
  const start = performance.now();
  try {
    let ok: boolean;
    if (newConnection) ok = await checkOnNewConnection(targets[index]!);
    else {
      const response = await fetch(`${targets[index]}/health`, { signal: AbortSignal.timeout(timeoutMs) });
      await response.arrayBuffer();
      ok = response.ok;
    }
    if (ok) latencies[index]!.push(performance.now() - start);
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
