// What `npm run bench:cluster` prints: a block per N, then the curve over N.
import type { PhaseSettings, runPhase } from "./phase.js";

type Phase = Awaited<ReturnType<typeof runPhase>>;
type Summary = { count: number; p50: number; p99: number; max: number; failed?: number };

const ms = (n: unknown) => (typeof n === "number" && Number.isFinite(n) ? `${Math.round(n)} ms` : "—");
const s = (n: unknown) => (typeof n === "number" && Number.isFinite(n) ? `${(n / 1000).toFixed(1)} s` : "—");
const pp = (x: Summary | undefined) => (x ? `p50 ${ms(x.p50)}, p99 ${ms(x.p99)} (${x.count})` : "—");

export function printPhase(phase: Phase) {
  const d = phase.delivery as any;
  const storm = phase.storm as any;
  const lines = [
    `\n== N = ${phase.n}: ${phase.subscribers} subscribers (load average: ${Object.entries(phase.loadAverages)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(", ")})`,
    `storm: ${storm.timedOut ? `timed out, ${storm.live} live` : `all live in ${s(storm.stormMs)}`}; refused busy ${storm.refusedBusy ?? "—"}, other failures ${storm.failedOther ?? "—"}; per instance ${JSON.stringify(storm.perInstance ?? {})}`,
    ...(phase.health as any[]).map(
      (h) => `/health during the storm, ${h.url}: ${pp(h)}, max ${ms(h.max)}, failed (2 s) ${h.failed}`,
    ),
    `statements per write (steady, ${phase.statementsPerWrite.writes} writes): reads ${phase.statementsPerWrite.reads.toFixed(2)} (raw ${phase.statementsPerWrite.readsRaw.toFixed(2)}, idle ${phase.statementsPerWrite.idleReadsPerSecond.toFixed(1)} reads/s taken off), writes ${phase.statementsPerWrite.writeStatements.toFixed(2)}`,
    `lost ${d.lost}, duplicated ${d.duplicated} (${d.duplicatedWithinSubscription} within one subscription, ${d.duplicatedStatus ?? 0} of them a status change shown again) of ${phase.committed} committed deltas × their subscribers; by phase lost ${JSON.stringify(d.lostByPhase)} duplicated ${JSON.stringify(d.duplicatedByPhase)}`,
    ...(d.examples as string[]).map((e) => `  ${e}`),
    ...(phase.acknowledgedMissing.length
      ? [`ACKNOWLEDGED WRITES MISSING FROM THE DATABASE: ${phase.acknowledgedMissing.join(", ")}`]
      : []),
    ...Object.entries(d.delivery as Record<string, Summary>)
      .sort()
      .map(([key, x]) => `delivery ${key}: ${pp(x)}, max ${ms(x.max)}`),
    `kill ${phase.kill.instance}: ${String((phase.kill as any).resubscribed)} resubscribed, resume ${pp(phase.kill as any)}, all live again after ${s(phase.kill.allLiveAfterMs)}${phase.kill.complete ? "" : " (NOT ALL)"}; restarted and serving after ${s(phase.kill.restartMs)}`,
    `Redis master ${phase.redis.master} killed 3 s: ${String((phase.redis as any).resubscribed)} resubscribed, all live ${s(phase.redis.allLiveAfterMs)} after it was back`,
    ...Object.entries(phase.writes.byPhase).map(([k, w]) => `writes ${k}: ${pp(w)}, failed ${w.failed}`),
    ...(phase.writes.failureExamples.length ? [`  write failures: ${phase.writes.failureExamples.join(" | ")}`] : []),
    ...phase.haproxy.afterStorm.map(
      (b) =>
        `${b.balancer} after the storm: ${b.servers.map((x) => `${x.name} ${x.status} ejected ${x.ejections}× (check failures ${x.checkFailures}, most sessions ${x.maxSessions})`).join("; ")}`,
    ),
    ...phase.haproxy.atEnd.map(
      (b) =>
        `${b.balancer} at the end: ${b.servers.map((x) => `${x.name} ${x.status} ejected ${x.ejections}× down ${x.downtimeS} s`).join("; ")}`,
    ),
    `HAProxy status changes: ${phase.haproxy.statusChanges.map((c) => `${c.atS}s ${c.balancer} ${c.server} ${c.from}→${c.to} (${c.check})`).join(", ") || "none"}`,
  ];
  console.log(lines.join("\n"));
}

export function printSummary(phases: Phase[], settings: PhaseSettings) {
  console.log(
    `\n== The curve (${settings.subscribers} subscribers, ${settings.dialogs} dialogs, ${settings.writeRate} writes/s)`,
  );
  console.log(
    "| N | storm: all live | /health p99 (worst instance) | ejected in storm | reads/write | delivery same p50/p99 | cross p50/p99 | resume p99 after kill | lost | dup |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const p of phases) {
    const d = p.delivery as any;
    const instanceHealth = (p.health as any[]).slice(0, p.n);
    const worst = Math.max(...instanceHealth.map((h) => h.p99));
    const ejected = p.haproxy.afterStorm.flatMap((b) => b.servers).reduce((sum, x) => sum + x.ejections, 0);
    const same = d.delivery["steady/same"] as Summary | undefined;
    const cross = d.delivery["steady/cross"] as Summary | undefined;
    const storm = p.storm as any;
    console.log(
      `| ${p.n} | ${storm.timedOut ? "timed out" : s(storm.stormMs)} | ${ms(worst)} | ${ejected} | ${p.statementsPerWrite.reads.toFixed(2)} | ${same ? `${ms(same.p50)} / ${ms(same.p99)}` : "—"} | ${cross ? `${ms(cross.p50)} / ${ms(cross.p99)}` : "—"} | ${ms((p.kill as any).p99)} | ${d.lost} | ${d.duplicated} |`,
    );
  }
}
