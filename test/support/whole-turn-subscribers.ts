// The story of test/live-resync-once.test.ts and the last one of test/live-redis-cluster.test.ts:
// three subscribers of a dialog holding one turn written whole (its response finished by the write
// that added its events), then something that makes every listener resync, then a second turn;
// each subscriber must get each delta once, each previousSeq the seq it was sent before.
import { expect } from "vitest";
import type { RunningServer } from "../../src/server/http-server.js";
import { writer } from "./dialogs.js";
import { type DeltaData, HISTORY_DELTA, httpExecutor, subscribe, take, wsClient } from "./live.js";

/** Each delta as [previousSeq, seq, the contents it appends]. */
export const deltaSummary = (deltas: DeltaData[]) =>
  deltas.map(({ historyDelta: d }) => [d.previousSeq, d.seq, d.append.map((e) => ("content" in e ? e.content : null))]);

/** Three subscribers (from seq 0) of a new dialog whose first turn (q1, a1) was written whole on `server`. */
export async function subscribersOfWholeTurn(server: RunningServer) {
  const via = writer(httpExecutor(server));
  const first = await via.createResponse({
    input: [{ human: { content: "q1" } }],
    output: [{ ai: { content: "a1" } }],
  });
  expect(first.status).toBe("COMPLETED");
  const dialogId = first.dialog.id;
  const subscribers = [0, 1, 2].map(() => subscribe(wsClient(server), HISTORY_DELTA, { dialogId, afterSeq: 0 }));
  const seen = await Promise.all(subscribers.map((subscriber) => take(subscriber, 1)));
  return {
    dialogId,
    /** Writes the second turn (q2, a2): every subscriber gets each delta once, then stops. */
    async expectEachDeltaOnce() {
      await via.createResponse({
        dialogId,
        input: [{ human: { content: "q2" } }],
        output: [{ ai: { content: "a2" } }],
      });
      for (const [i, subscriber] of subscribers.entries()) {
        while (seen[i]!.at(-1)!.historyDelta.seq < 4) seen[i]!.push(...(await take(subscriber, 1)));
        expect(deltaSummary(seen[i]!)).toEqual([
          [0, 2, ["q1", "a1"]],
          [2, 4, ["q2", "a2"]],
        ]);
        await subscriber.return?.();
      }
    },
  };
}
