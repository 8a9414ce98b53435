// Vitest global setup: the browser and asset tests serve web/dist, so it must hold the viewer as
// the code is now. Built once per run, and only when a source is newer than the build (npm
// install builds it too, so on CI this usually finds it current).
import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCES = ["web/src", "web/index.html", "web/vite.config.ts", "src/client", "package-lock.json"];
const BUILT = path.join(ROOT, "web/dist/index.html");

export default async function setup() {
  if (newestSource() > modifiedAt(BUILT)) await buildViewer();
}

function modifiedAt(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function newestSource(): number {
  let newest = 0;
  const visit = (file: string) => {
    const stat = statSync(file);
    if (stat.isDirectory()) for (const entry of readdirSync(file)) visit(path.join(file, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const source of SOURCES) visit(path.join(ROOT, source));
  return newest;
}

function buildViewer(): Promise<void> {
  const vite = path.join(ROOT, "node_modules/vite/bin/vite.js");
  const child = spawn(process.execPath, [vite, "build", "--config", "web/vite.config.ts", "--logLevel", "warn"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`vite build failed (${code}):\n${output}`))));
  });
}
