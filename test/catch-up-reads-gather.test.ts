// Subscribers of one dialog starting together share one start-up read even when they reach it a
// few turns of the event loop apart, as subscription-pacing.ts starts them (a few per turn, each
// reaching its read after its own context and checks): a read starts once a turn brought no more
// askers, not on the first turn after the first one.
import { describe, expect, it } from "vitest";
import { ReadsStartingLater } from "../src/live/catch-up-reads.js";

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("ReadsStartingLater", () => {
  it("shares one read among askers arriving on consecutive turns of the loop", async () => {
    const reads = new ReadsStartingLater();
    let runs = 0;
    const run = async () => ++runs;
    const asked: Promise<number>[] = [];
    for (let i = 0; i < 5; i++) {
      asked.push(reads.read("dialog/3", run));
      await nextTurn();
    }
    expect(await Promise.all(asked)).toEqual([1, 1, 1, 1, 1]);
    expect(runs).toBe(1);
  });

  it("serves an asker that came after the read started with the next read", async () => {
    const reads = new ReadsStartingLater();
    let runs = 0;
    let release!: () => void;
    const started: (() => void)[] = [];
    const run = () =>
      new Promise<number>((resolve) => {
        const n = ++runs;
        release = () => resolve(n);
        started.shift()?.();
      });
    const first = reads.read("dialog/3", run);
    await new Promise<void>((resolve) => started.push(resolve));
    const second = reads.read("dialog/3", run);
    const secondStarted = new Promise<void>((resolve) => started.push(resolve));
    release();
    expect(await first).toBe(1);
    await secondStarted;
    release();
    expect(await second).toBe(2);
  });
});
