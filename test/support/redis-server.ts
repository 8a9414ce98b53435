// A Redis server of the test's own, on a free loopback port, that the test may kill and restart
// (never the shared one on 6379). Stopped after the test file whatever happens.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { Redis } from "ioredis";
import { atEveryFileEnd } from "./file-scope.js";

const running = new Set<ChildProcess>();
atEveryFileEnd(() => {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
});

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startOwnRedis() {
  const port = await freePort();
  let child: ChildProcess | null = null;

  const start = async () => {
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    running.add(child);
    child.once("exit", () => running.delete(child!));
    await waitForPing(port);
  };
  await start();

  return {
    url: `redis://127.0.0.1:${port}`,
    /** SIGKILL: no goodbye to clients, as in a crash. */
    async kill() {
      const dying = child;
      if (!dying || dying.exitCode !== null) return;
      const exited = new Promise((resolve) => dying.once("exit", resolve));
      dying.kill("SIGKILL");
      await exited;
    },
    restart: start,
    /** SIGSTOP: connections stay open and nothing answers, as in a network partition. */
    pause: () => void child?.kill("SIGSTOP"),
    resume: () => void child?.kill("SIGCONT"),
  };
}

async function waitForPing(port: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = new Redis({
      port,
      host: "127.0.0.1",
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    probe.on("error", () => undefined);
    try {
      await probe.connect();
      if ((await probe.ping()) === "PONG") return;
    } catch {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      probe.disconnect();
    }
  }
}
