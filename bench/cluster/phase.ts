// One N of `npm run bench:cluster`: N instances behind a new HAProxy, a connect storm, an idle
// window and a steady window (statements per write), an instance killed, a Redis master restarted,
// then every subscriber's deltas checked against what PostgreSQL committed.
import os from "node:os";
import path from "node:path";
import type { IpcChild } from "../lib/ipc-child.js";
import type { OwnRedisCluster } from "../../test/support/redis-cluster.js";
import { MAX_CONNECTIONS, type ServerStat, startHaproxy, watchStatuses } from "./haproxy.js";
import { type Instance, instance } from "./instances.js";
import { committedDeltas } from "./truth.js";
import { startWriter, turn, writeTurn } from "./writer.js";

export interface PhaseSettings {
  subscribers: number;
  dialogs: number;
  writeRate: number;
  idleMs: number;
  steadyMs: number;
  stormTimeoutMs: number;
  /** HAProxy processes' ports (front, stats), one per MAX_CONNECTIONS subscribers. */
  ports: { balancers: { front: number; stats: number }[]; instances: number[]; health: number[] };
}

export interface PhaseContext {
  env: Record<string, string>;
  directory: string;
  directUrl: string;
  cluster: OwnRedisCluster;
  spawn: (file: string, env: Record<string, string>) => IpcChild;
}

const here = path.dirname(new URL(import.meta.url).pathname);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => performance.timeOrigin + performance.now();
const load = () => os.loadavg()[0]!;

/** Statements of every instance so far; NaN when an instance is too busy to answer /metrics in 60 s. */
async function statements(instances: Instance[]) {
  const all = await Promise.all(instances.map((i) => i.statements().catch(() => ({ read: NaN, write: NaN }))));
  return { read: all.reduce((s, x) => s + x.read, 0), write: all.reduce((s, x) => s + x.write, 0) };
}

/** Resolves once `live` reaches `target` (status polled), or after `timeoutMs`; how long it took. */
async function untilLive(subscribers: IpcChild, target: number, timeoutMs: number) {
  const started = now();
  for (;;) {
    subscribers.send({ type: "status" });
    const { live, stillOut } = await subscribers.next<{ live: number; stillOut: number }>("status");
    if (live >= target) return { ms: now() - started, live, stillOut, complete: true };
    if (now() - started > timeoutMs) return { ms: now() - started, live, stillOut, complete: false };
    await sleep(250);
  }
}

export async function runPhase(n: number, settings: PhaseSettings, context: PhaseContext) {
  const phaseStarted = now();
  const log = (message: string) =>
    console.error(`[N=${n} ${((now() - phaseStarted) / 1000).toFixed(1)}s load ${load().toFixed(1)}] ${message}`);
  const loadAverages: Record<string, number> = { start: load() };
  const instances = settings.ports.instances
    .slice(0, n)
    .map((port, i) => instance(`i${i + 1}`, port, settings.ports.health[i]!, context.directory, context.env));
  try {
    // The first one applies the migrations (on DATABASE_DIRECT_URL); the others find them applied.
    await instances[0]!.start();
    await Promise.all(instances.slice(1).map((i) => i.start()));
    log(`${n} instance(s) serving`);
    return await behindBalancers(n, settings, context, instances, log, phaseStarted, loadAverages);
  } finally {
    await Promise.all(instances.map((i) => i.kill()));
  }
}

async function behindBalancers(
  n: number,
  settings: PhaseSettings,
  context: PhaseContext,
  instances: Instance[],
  log: (message: string) => void,
  phaseStarted: number,
  loadAverages: Record<string, number>,
) {
  // Room for the subscribers, the writer and the probes in each HAProxy.
  const balancerCount = Math.ceil(settings.subscribers / (MAX_CONNECTIONS - 500));
  if (balancerCount > settings.ports.balancers.length)
    throw new Error(`${settings.subscribers} subscribers need ${balancerCount} HAProxy processes`);
  const balancers = await Promise.all(
    settings.ports.balancers.slice(0, balancerCount).map(({ front, stats }) =>
      startHaproxy(
        context.directory,
        front,
        stats,
        instances.map((i) => ({ name: i.name, port: i.port, checkPort: Number(new URL(i.healthUrl).port) })),
      ),
    ),
  );
  const balancer = balancers[0]!;
  const statuses = balancers.map((b) => ({ name: b.name, watch: watchStatuses(b.stats, phaseStarted) }));
  const allStats = async () =>
    Promise.all(balancers.map(async (b) => ({ balancer: b.name, servers: brief(await b.stats()) })));
  const graphqlUrl = `${balancer.url}/graphql`;
  const children: IpcChild[] = [];
  try {
    // The dialogs, each with one turn: the subscribers' starting point.
    const dialogIds: string[] = [];
    const seeds: { seq: number }[] = [];
    for (let i = 0; i < settings.dialogs; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, settings.dialogs - i) }, (_, j) => writeTurn(graphqlUrl, turn(i + j))),
      );
      for (const seed of batch) {
        dialogIds.push(seed.dialogId);
        seeds.push(seed);
      }
    }
    const seedSeq = seeds[0]!.seq;
    if (seeds.some((s) => s.seq !== seedSeq)) throw new Error("the seed turns do not all end at the same seq");

    const subscribers = context.spawn(path.join(here, "../load/cluster-subscribers.ts"), {
      WS_URLS: balancers.map((b) => `${b.url.replace("http", "ws")}/graphql`).join(","),
      SUBSCRIBERS: String(settings.subscribers),
      DIALOG_IDS: dialogIds.join(","),
      SEED_SEQ: String(seedSeq),
      // A seed turn is one human and one AI event: its delta is (seq - 2, seq].
      SEED_PREVIOUS_SEQ: String(seedSeq - 2),
    });
    children.push(subscribers);
    const probe = context.spawn(path.join(here, "../load/health-probe.ts"), {
      // What HAProxy checks (each instance's HEALTH_PORT) first, then the main ports, then HAProxy.
      TARGET_URLS: [
        ...instances.map((i) => i.healthUrl),
        ...instances.map((i) => i.url),
        ...balancers.map((b) => b.url),
      ].join(","),
      INTERVAL_MS: "100",
      TIMEOUT_MS: "2000",
      // As HAProxy checks: a new connection each time.
      NEW_CONNECTION: "1",
    });
    children.push(probe);
    await Promise.all([subscribers.next("started"), probe.next("started")]);

    // 1. The connect storm.
    log(`storm: ${settings.subscribers} subscribers at once`);
    subscribers.send({ type: "storm" });
    const ready = await Promise.race([
      subscribers.next<Record<string, unknown>>("ready"),
      sleep(settings.stormTimeoutMs).then(() => null),
    ]);
    const stormLive = ready ? null : await untilLive(subscribers, settings.subscribers, 0);
    probe.send({ type: "finish" });
    const health = (await probe.next<{ targets: unknown[] }>("result")).targets;
    loadAverages.storm = load();
    const afterStorm = await allStats();
    log(
      ready
        ? `all live in ${((ready.stormMs as number) / 1000).toFixed(1)} s`
        : `storm timed out: ${stormLive!.live} live`,
    );

    // 2. Statements with subscribers and no writes (background: revocation polls, health…), then
    // with the writer: the difference per write.
    const idle0 = await statements(instances);
    await sleep(settings.idleMs);
    const idle1 = await statements(instances);
    const writer = startWriter(graphqlUrl, dialogIds, settings.writeRate);
    await sleep(1_000);
    const steady0 = await statements(instances);
    const written0 = writer.count();
    await sleep(settings.steadyMs);
    const steady1 = await statements(instances);
    const writtenInWindow = writer.count() - written0;
    loadAverages.steady = load();
    const perSecond = (a: { read: number; write: number }, b: { read: number; write: number }, ms: number) => ({
      read: ((b.read - a.read) / ms) * 1000,
      write: ((b.write - a.write) / ms) * 1000,
    });
    const idleRate = perSecond(idle0, idle1, settings.idleMs);
    const statementsPerWrite = {
      writes: writtenInWindow,
      readsRaw: (steady1.read - steady0.read) / writtenInWindow,
      writesRaw: (steady1.write - steady0.write) / writtenInWindow,
      reads: (steady1.read - steady0.read - (idleRate.read * settings.steadyMs) / 1000) / writtenInWindow,
      writeStatements: (steady1.write - steady0.write - (idleRate.write * settings.steadyMs) / 1000) / writtenInWindow,
      idleReadsPerSecond: idleRate.read,
    };
    log(`steady: ${writtenInWindow} writes, ${statementsPerWrite.reads.toFixed(2)} reads per write`);

    // 3. An instance killed (SIGKILL) under load, and started again at once.
    writer.setPhase("instance-kill");
    const victim = instances[n - 1]!;
    const killedAt = now();
    await victim.kill();
    log(`killed ${victim.name}`);
    const restarting = victim.start().then(() => now() - killedAt);
    const backLive = await untilLive(subscribers, settings.subscribers, 120_000);
    const restartMs = await restarting;
    subscribers.send({ type: "resumed" });
    const resumed = await subscribers.next<Record<string, unknown>>("resumed");
    loadAverages.kill = load();
    log(
      `all live again ${(backLive.ms / 1000).toFixed(1)} s after the kill (${String(resumed.resubscribed)} resubscribed)`,
    );
    await sleep(3_000);

    // 4. A Redis Cluster master killed, and back 3 s later.
    writer.setPhase("redis-restart");
    const master = context.cluster.masters[0]!;
    await master.kill();
    log(`Redis master ${master.port} killed`);
    await sleep(3_000);
    await master.restart();
    log("Redis master back, cluster ok");
    const afterRedis = await untilLive(subscribers, settings.subscribers, 60_000);
    await sleep(10_000);
    subscribers.send({ type: "resumed" });
    const redisResumed = await subscribers.next<Record<string, unknown>>("resumed");
    const writes = await writer.stop();
    loadAverages.redis = load();
    // Deliveries of the last writes.
    await sleep(5_000);

    // 5. Every subscriber against what was committed.
    const truth = await committedDeltas(context.directUrl, dialogIds, seedSeq, writer.written);
    subscribers.send({ type: "finish", committed: truth.committed });
    const delivery = await subscribers.next<Record<string, unknown>>("result");
    const atEnd = await allStats();
    log(`lost ${String(delivery.lost)}, duplicated ${String(delivery.duplicated)}`);
    return {
      n,
      subscribers: settings.subscribers,
      storm: ready ?? { timedOut: true, ...stormLive },
      health,
      statementsPerWrite,
      kill: { instance: victim.name, allLiveAfterMs: backLive.ms, complete: backLive.complete, restartMs, ...resumed },
      redis: { master: master.port, allLiveAfterMs: afterRedis.ms, ...redisResumed },
      writes,
      committed: truth.committed.length,
      acknowledgedMissing: truth.acknowledgedMissing,
      delivery,
      haproxy: {
        afterStorm,
        atEnd,
        statusChanges: statuses.flatMap(({ name, watch }) => watch.changes.map((c) => ({ balancer: name, ...c }))),
      },
      loadAverages,
      logs: instances.map((i) => i.logFile),
    };
  } finally {
    for (const { watch } of statuses) watch.stop();
    for (const child of children) if (child.process.exitCode === null) child.process.kill("SIGKILL");
    await Promise.all(balancers.map((b) => b.stop()));
  }
}

const brief = (servers: ServerStat[]) =>
  servers.map((s) => ({
    name: s.name,
    status: s.status,
    ejections: s.checkDowns,
    checkFailures: s.checkFailures,
    downtimeS: s.downtime,
    maxSessions: s.maxSessions,
    connectionErrors: s.connectionErrors,
  }));
