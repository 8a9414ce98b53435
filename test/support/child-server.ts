// dialogql as `npm start` runs it, in a child process on a fixed loopback port, so a test can stop
// it and start it again on the same address and the same database: a real restart.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 20_000;

export interface ChildServer {
  url: string;
  /** The server's process id (a bench reads its CPU time). */
  pid: number;
  /** What the server has printed so far. */
  output(): string;
  /** Stops the server as a supervisor would (SIGTERM) and waits for the process to exit. */
  stop(): Promise<void>;
}

/** A loopback port that is free now, to start (and restart) a server on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function startChildServer(port: number, env: Record<string, string | undefined>): Promise<ChildServer> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const exited = (code: number | null) => fail(`exited with ${code}`);
    const timer = setTimeout(() => fail(`did not start within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`dialogql ${why}:\n${output.slice(-3000)}`));
    };
    child.once("exit", exited);
    child.stdout!.on("data", () => {
      if (!output.includes("listening on")) return;
      clearTimeout(timer);
      child.off("exit", exited);
      resolve();
    });
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, output: () => output, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
