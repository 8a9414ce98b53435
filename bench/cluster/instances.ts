// dialogql instances as separate processes (`src/main.ts`, as `npm start` runs it) on fixed
// loopback ports, each logging to a file of its own (the evidence when something goes wrong).
// An instance can be killed with SIGKILL (a crash: no goodbye to its sockets) and started again
// on the same port, as a supervisor would.
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

export interface Instance {
  name: string;
  port: number;
  url: string;
  /** Where /health is served on a listener of its own (HEALTH_PORT): what HAProxy checks. */
  healthUrl: string;
  logFile: string;
  start(): Promise<void>;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (graceful drain), resolved once the process is gone. */
  stop(): Promise<void>;
  /** Its database statements so far, from /metrics (reads and writes). */
  statements(): Promise<{ read: number; write: number }>;
}

export function instance(
  name: string,
  port: number,
  healthPort: number,
  directory: string,
  env: Record<string, string>,
): Instance {
  const url = `http://127.0.0.1:${port}`;
  const logFile = path.join(directory, `${name}.log`);
  let child: ChildProcess | null = null;
  const gone = () => !child || child.exitCode !== null || child.signalCode !== null;
  const ended = () => new Promise<void>((resolve) => (gone() ? resolve() : child!.once("exit", () => resolve())));
  return {
    name,
    port,
    url,
    healthUrl: `http://127.0.0.1:${healthPort}`,
    logFile,
    async start() {
      // Something else answering on the port would pass for this instance.
      await ensureFree(port);
      const log = openSync(logFile, "a");
      child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
        cwd: repoRoot,
        env: { ...process.env, ...env, PORT: String(port), HEALTH_PORT: String(healthPort), HOST: "127.0.0.1" },
        stdio: ["ignore", log, log],
      });
      closeSync(log);
      const deadline = Date.now() + 120_000;
      for (;;) {
        if (gone())
          throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before serving; see ${logFile}`);
        const ok = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) }).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) return;
        if (Date.now() > deadline) throw new Error(`${name} not serving after 120 s; see ${logFile}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async kill() {
      if (gone()) return;
      const exited = ended();
      child!.kill("SIGKILL");
      await exited;
    },
    async stop() {
      if (gone()) return;
      const exited = ended();
      child!.kill("SIGTERM");
      // Bounded: the drain is SHUTDOWN_DRAIN_MS plus a few seconds; past 30 s it is killed.
      const timer = setTimeout(() => child?.kill("SIGKILL"), 30_000);
      await exited;
      clearTimeout(timer);
    },
    async statements() {
      const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(60_000) })).text();
      const count = (kind: string) =>
        Number(
          new RegExp(`^dialogql_db_statement_duration_seconds_count\\{kind="${kind}"\\} (\\S+)`, "m").exec(text)?.[1] ??
            NaN,
        );
      return { read: count("read"), write: count("write") };
    },
  };
}

export async function ensureFree(port: number) {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(new Error(`port ${port} is in use (${error.code}): stop what holds it`)),
    );
    server.listen(port, "127.0.0.1", () => resolve());
  });
  await new Promise((resolve) => server.close(resolve));
}
