// The Portkey AI gateway (`@portkey-ai/gateway` from npm, stores nothing) as a peer of the
// generate scenario: installed on first use into bench/.peers/portkey (not a dependency of
// dialogql), started on a free port and pointed at the same upstream stand-in.
//
// On Node 20 its streaming fails with "TypeError: immutable" (Portkey-AI/gateway#1389, #1550): it
// adds headers to a response whose headers fetch made immutable. The installed copy gets the
// one-line change of its PR #1551 — the response is copied into a new Response before its headers
// are changed (here always, not only for mapped streams: a copy of the headers, the body not read).
import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

const VERSION = "1.15.2";
const home = path.resolve(import.meta.dirname, "../.peers/portkey");
const entry = path.join(home, "node_modules/@portkey-ai/gateway/build/start-server.js");

function install() {
  if (!existsSync(entry)) download();
  patchStreaming();
}

function download() {
  mkdirSync(home, { recursive: true });
  writeFileSync(
    path.join(home, "package.json"),
    JSON.stringify({
      private: true,
      dependencies: { "@portkey-ai/gateway": VERSION },
    }),
  );
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], {
    cwd: home,
    stdio: ["ignore", "ignore", "inherit"],
  });
}

function patchStreaming() {
  const code = readFileSync(entry, "utf8");
  const mutation = "this.updateHeaders(i,n.cacheStatus,o)";
  const copied = "i=new Response(i.body,{status:i.status,statusText:i.statusText,headers:new Headers(i.headers)})";
  if (code.includes(copied)) return;
  if (!code.includes(mutation)) throw new Error(`the streaming fix does not apply to @portkey-ai/gateway@${VERSION}`);
  writeFileSync(entry, code.replace(mutation, `(${copied},${mutation})`));
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });

/** Starts the gateway; null (with the reason on stderr) when it cannot be installed or started. */
export async function startPortkey(): Promise<{ url: string; close(): void } | null> {
  try {
    install();
  } catch (error) {
    process.stderr.write(`[bench] Portkey gateway not installed (${(error as Error).message}); not measured\n`);
    return null;
  }
  const port = await freePort();
  const child = spawn(process.execPath, [entry, `--port=${port}`, "--headless"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NODE_ENV: "production" },
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) break;
    const up = await fetch(`${url}/`).then(
      () => true,
      () => false,
    );
    if (up) return { url: `${url}/v1`, close: () => child.kill() };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  process.stderr.write("[bench] Portkey gateway did not start; not measured\n");
  return null;
}
