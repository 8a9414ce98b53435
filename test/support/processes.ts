// Real dialogql server processes (`src/main.ts`), for tests about several instances. Each is
// stopped with SIGTERM after the test file, as a deployment would stop it.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { atEveryFileEnd } from "./file-scope.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const running = new Set<ChildProcess>();

atEveryFileEnd(async () => {
  await Promise.all([...running].map(stop));
});

export interface ServerProcess {
  url: string;
  output: () => string;
}

/** Starts `npm start`'s entry point on a free port and resolves once it is listening. */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: repoRoot,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/[^\s"]+)/.exec(output);
      if (listening) resolve({ url: listening[1]!, output: () => output });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      running.delete(child);
      reject(new Error(`server process exited (${code}) before listening:\n${output}`));
    });
    // Bounded: a server that never says it is listening fails the test instead of hanging it.
    setTimeout(() => reject(new Error(`server process not listening after 60 s:\n${output}`)), 60_000).unref();
  });
}

function stop(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
