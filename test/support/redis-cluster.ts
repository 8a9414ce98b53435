// A Redis Cluster of the test's own: three masters, each a local `redis-server` with
// cluster-enabled on a free loopback port, joined by `redis-cli --cluster create`. Every node can
// be killed and restarted (it keeps its cluster identity in its nodes file, so it rejoins with its
// slots). Stopped, and its files removed, after the test file whatever happens.
import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { atEveryFileEnd } from "./file-scope.js";
import { freePort } from "./redis-server.js";

const run = promisify(execFile);
const running = new Set<ChildProcess>();
const directories = new Set<string>();
atEveryFileEnd(() => {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  directories.clear();
});

/** Why a cluster cannot be started here, or null when it can (redis-server 7+ and redis-cli exist). */
export function redisClusterUnavailable(): string | null {
  const server = spawnSync("redis-server", ["--version"], { encoding: "utf8" });
  if (server.error) return "redis-server is not installed";
  const major = Number(/v=(\d+)/.exec(server.stdout)?.[1]);
  if (!(major >= 7)) return `redis-server ${major} has no sharded pub/sub (7 or later needed)`;
  if (spawnSync("redis-cli", ["--version"]).error) return "redis-cli is not installed";
  return null;
}

export interface RedisClusterNode {
  port: number;
  kill(): Promise<void>;
  restart(): Promise<void>;
}

export interface OwnRedisCluster {
  /** `host:port,…`, as REDIS_CLUSTER_NODES takes it. */
  nodes: string;
  masters: RedisClusterNode[];
}

/** `size` masters, on `ports` when given (free loopback ports otherwise). */
export async function startOwnRedisCluster(
  size = 3,
  { ports: fixedPorts }: { ports?: number[] } = {},
): Promise<OwnRedisCluster> {
  const directory = mkdtempSync(path.join(tmpdir(), "dialogql-redis-cluster-"));
  directories.add(directory);
  const ports: number[] = fixedPorts ? fixedPorts.slice(0, size) : [];
  while (ports.length < size) ports.push(await freePort());
  const masters = await Promise.all(ports.map((port) => startNode(directory, port)));
  await run("redis-cli", [
    "--cluster",
    "create",
    ...ports.map((port) => `127.0.0.1:${port}`),
    "--cluster-replicas",
    "0",
    "--cluster-yes",
  ]);
  await Promise.all(ports.map(waitForClusterOk));
  return { nodes: ports.map((port) => `127.0.0.1:${port}`).join(","), masters };
}

async function startNode(directory: string, port: number): Promise<RedisClusterNode> {
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(
      "redis-server",
      [
        ...["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        ...["--cluster-enabled", "yes", "--cluster-config-file", `nodes-${port}.conf`],
        ...["--cluster-node-timeout", "2000", "--dir", directory],
      ],
      { stdio: "ignore" },
    );
    running.add(child);
    child.once("exit", () => running.delete(child!));
    await waitFor(port, async (probe) => (await probe.ping()) === "PONG");
  };
  await start();
  return {
    port,
    async kill() {
      const dying = child;
      if (!dying || dying.exitCode !== null) return;
      const exited = new Promise((resolve) => dying.once("exit", resolve));
      dying.kill("SIGKILL");
      await exited;
    },
    async restart() {
      await start();
      await waitForClusterOk(port);
    },
  };
}

const waitForClusterOk = (port: number) =>
  waitFor(port, async (probe) => /cluster_state:ok/.test(String(await probe.call("CLUSTER", "INFO"))));

async function waitFor(port: number, ready: (probe: Redis) => Promise<boolean>) {
  const deadline = Date.now() + 20_000;
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
      if (await ready(probe)) return;
    } catch {
      // not up yet
    } finally {
      probe.disconnect();
    }
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not become ready`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
