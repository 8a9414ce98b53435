// The bench's writer: turns at a fixed rate through the load balancer, one dialog after the other
// (round robin), each continuing its dialog. Open loop: a write is sent on time whether or not the
// earlier ones have answered (at most MAX_IN_FLIGHT at once; past that a tick is skipped and
// counted), so a slow or failing instance shows as latency and failures, not as a lower rate.
// Every write keeps when it was sent, which instance committed it (`X-Served-By`), its delta's
// seq and the phase of the run it belongs to.
import { summarize } from "../lib/stats.js";

const MAX_IN_FLIGHT = 200;
const WRITE = `mutation($input: CreateResponseInput!) { createResponse(input: $input) {
  __typename ... on Response { dialog { id } output { ... on BaseHistoryEvent { seq } } } ... on Error { message } } }`;

export interface WriteRecord {
  dialog: number;
  seq: number;
  sentAt: number;
  instance: string;
  phase: string;
  ms: number;
}

const now = () => performance.timeOrigin + performance.now();

/** One turn; the seq of its delta and the instance that served it. */
export async function writeTurn(graphqlUrl: string, input: Record<string, unknown>) {
  const response = await fetch(graphqlUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: WRITE, variables: { input } }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`HTTP ${response.status}: ${text.slice(0, 200)}`);
  }
  const result = body.data?.createResponse;
  if (result?.__typename !== "Response") throw new Error(`write failed: ${JSON.stringify(body).slice(0, 300)}`);
  return {
    dialogId: result.dialog.id as string,
    seq: result.output.at(-1).seq as number,
    instance: response.headers.get("x-served-by") ?? "",
  };
}

export const turn = (i: number) => ({
  input: [{ human: { content: `Question ${i}` } }],
  output: [{ ai: { content: `Answer ${i}` } }],
});

export function startWriter(graphqlUrl: string, dialogIds: string[], perSecond: number) {
  const written: WriteRecord[] = [];
  const failures: { phase: string; at: number; error: string }[] = [];
  let phase = "steady";
  let inFlight = 0;
  let skipped = 0;
  let sent = 0;
  const pending = new Set<Promise<void>>();
  const started = now();
  const tick = () => {
    // Catch up to the schedule (timers fire late on a loaded machine), never ahead of it.
    const due = Math.floor(((now() - started) / 1000) * perSecond);
    while (sent < due) {
      const i = sent++;
      if (inFlight >= MAX_IN_FLIGHT) {
        skipped++;
        continue;
      }
      const dialog = i % dialogIds.length;
      const writePhase = phase;
      const sentAt = now();
      inFlight++;
      const write = writeTurn(graphqlUrl, { dialogId: dialogIds[dialog], ...turn(i) })
        .then(
          ({ seq, instance }) =>
            void written.push({ dialog, seq, sentAt, instance, phase: writePhase, ms: now() - sentAt }),
          (error: Error) => void failures.push({ phase: writePhase, at: sentAt, error: error.message.slice(0, 200) }),
        )
        .finally(() => {
          inFlight--;
          pending.delete(write);
        });
      pending.add(write);
    }
  };
  const timer = setInterval(tick, Math.max(5, Math.floor(1000 / perSecond / 2)));
  return {
    written,
    failures,
    setPhase: (next: string) => void (phase = next),
    /** Acknowledged writes so far. */
    count: () => written.length,
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
      const byPhase: Record<string, ReturnType<typeof summarize> & { failed: number }> = {};
      for (const p of new Set([...written.map((w) => w.phase), ...failures.map((f) => f.phase)])) {
        byPhase[p] = {
          ...summarize(written.filter((w) => w.phase === p).map((w) => w.ms)),
          failed: failures.filter((f) => f.phase === p).length,
        };
      }
      return { byPhase, skipped, failureExamples: [...new Set(failures.map((f) => f.error))].slice(0, 5) };
    },
  };
}
