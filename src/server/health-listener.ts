// `/health` and `/ready` on a listening socket of their own (HEALTH_PORT), for the load balancer's
// checks, answered by a worker thread so that they never wait behind the main event loop.
//
// Why a socket of its own: a check opens a new connection each time, and on the main port a new
// connection waits behind every connection that arrived before it — during a connect storm
// (thousands of WebSocket clients at once, the clients of an instance that died) `/health` timed
// out for most checks while the loop was free, and the load balancer ejected healthy instances.
// Why a thread of its own: on a socket of its own, answered by the main loop, a check still waited
// for the loop's current turn; at 10,000 subscribers connecting its p99 was 175 ms (docs/scaling.md).
//
// The answers stay honest about the main loop: it writes a heartbeat into memory the worker shares
// every HEARTBEAT_MS, and when none has come for `stallMs` (HEALTH_STALL_MS) both answers are 503
// `stalled` — a loop stuck that long is not serving, and a supervisor should restart it. What
// `/health` and `/ready` say otherwise is what the main thread last reported: health on every
// heartbeat, readiness (a database query, src/server/readiness.ts) refreshed when a check finds
// it older than READY_REFRESH_MS, so a check answers at once with a readiness at most that old
// plus one query. Draining (a shutdown) is `/ready` 503 at once. Nothing else is served here.
import { Worker } from "node:worker_threads";

const HEARTBEAT_MS = 100;
const READY_REFRESH_MS = 1_000;

/** An answer as the worker sends it: status code and JSON body. */
export interface HealthAnswer {
  status: number;
  body: unknown;
}

export interface HealthSources {
  /** Liveness as the main port answers it (synchronous, cheap). */
  health(): HealthAnswer;
  /** Readiness as the main port answers it (reads the database). */
  ready(): Promise<HealthAnswer>;
}

export interface HealthListener {
  port: number;
  /** From now on `/ready` answers 503 `draining` (a shutdown started). */
  draining(): void;
  close(): Promise<void>;
}

export interface HealthListenerOptions {
  host: string;
  /** 0: a free one. */
  port: number;
  /** HEALTH_STALL_MS. */
  stallMs: number;
  /** How old a readiness may be before a check asks for a new one (READY_REFRESH_MS). */
  readyRefreshMs?: number;
}

/** Listens in a worker thread; answers GET /health and /ready; 404 otherwise. */
export async function listenForHealth(
  sources: HealthSources,
  { host, port, stallMs, readyRefreshMs = READY_REFRESH_MS }: HealthListenerOptions,
): Promise<HealthListener> {
  // [0]: the main loop's last heartbeat (ms since the epoch), read by the worker without the loop.
  const heartbeat = new Float64Array(new SharedArrayBuffer(8));
  const beat = () => (heartbeat[0] = Date.now());
  beat();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { host, port, heartbeat, stallMs, refreshMs: readyRefreshMs },
  });
  const listening = new Promise<number>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("message", (message: { type: string; port?: number; error?: string }) =>
      message.type === "listening" ? resolve(message.port!) : reject(new Error(message.error)),
    );
  });
  let lastHealth = "";
  const postHealth = () => {
    const answer = sources.health();
    const text = JSON.stringify(answer);
    if (text === lastHealth) return;
    lastHealth = text;
    worker.postMessage({ type: "health", answer });
  };
  const postReady = async () =>
    worker.postMessage({
      type: "ready",
      answer: await sources.ready().catch((error: Error) => ({
        status: 503,
        body: { status: "not ready", detail: error.message },
      })),
    });
  const timer = setInterval(() => (beat(), postHealth()), HEARTBEAT_MS);
  timer.unref();
  postHealth();
  await postReady();
  worker.on("message", (message: { type: string }) => {
    if (message.type === "refresh") void postReady();
  });
  const boundPort = await listening.catch(async (error: unknown) => {
    clearInterval(timer);
    await worker.terminate();
    throw error;
  });
  // An error after the start (it cannot listen any more) ends the checks: the load balancer then
  // takes the instance out, which is what it should do with an instance it cannot check.
  worker.on("error", () => undefined);
  return {
    port: boundPort,
    draining: () => worker.postMessage({ type: "draining" }),
    async close() {
      clearInterval(timer);
      await worker.terminate();
    },
  };
}

// The worker, as a script of its own (a worker runs a file or a script, and the project's
// TypeScript is compiled for the main thread only). Plain CommonJS, Node's modules only.
const WORKER_SOURCE = String.raw`
const { createServer } = require("node:http");
const { parentPort, workerData } = require("node:worker_threads");
const { host, port, heartbeat, stallMs, refreshMs } = workerData;
let health = { status: 200, body: { status: "ok" } };
let ready = { status: 503, body: { status: "not ready", detail: "not checked yet" } };
let readyAt = Date.now();
let refreshing = false;
let draining = false;
parentPort.on("message", (message) => {
  if (message.type === "health") health = message.answer;
  else if (message.type === "ready") (ready = message.answer), (readyAt = Date.now()), (refreshing = false);
  else if (message.type === "draining") draining = true;
});
const send = (response, { status, body }) => {
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  response.end(JSON.stringify(body));
};
const server = createServer((request, response) => {
  const path = (request.url || "").split("?")[0];
  if (path !== "/health" && path !== "/ready") {
    response.writeHead(404, { "content-type": "text/plain" });
    return response.end("Only /health and /ready are served on this port");
  }
  const sinceHeartbeat = Date.now() - heartbeat[0];
  if (sinceHeartbeat > stallMs) {
    const detail = "the event loop has not run for " + sinceHeartbeat + " ms";
    return send(response, { status: 503, body: { status: "stalled", detail } });
  }
  if (path === "/health") return send(response, health);
  if (draining) return send(response, { status: 503, body: { status: "draining" } });
  if (Date.now() - readyAt > refreshMs && !refreshing) (refreshing = true), parentPort.postMessage({ type: "refresh" });
  send(response, ready);
});
server.keepAliveTimeout = 1000;
server.once("error", (error) => parentPort.postMessage({ type: "error", error: error.message }));
server.listen({ port, host }, () => parentPort.postMessage({ type: "listening", port: server.address().port }));
`;
