// Runs a TypeScript file in its own Node process (its own event loop) and collects its result line.
import { spawn } from "node:child_process";
import { RESULT_MARKER } from "./report.js";

export function runTs<T>(file: string, env: Record<string, string | undefined>, args: string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    // --expose-gc: scenarios that report memory collect garbage before they measure.
    const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", file, ...args], {
      env: { ...process.env, LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      const line = output.split("\n").find((l) => l.startsWith(RESULT_MARKER));
      if (code !== 0 || !line) return reject(new Error(`${file} exited with ${code}:\n${output.slice(-2000)}`));
      resolve(JSON.parse(line.slice(RESULT_MARKER.length)) as T);
    });
  });
}
