// Subscriptions whose sockets closed are released a batch per turn of the event loop
// (src/server/paced-releases.ts), so 10,000 clients closing at once do not hold the loop for
// seconds: what else arrived (a health check) is answered between batches. Every release still
// happens, once, whatever the others do.
import { describe, expect, it } from "vitest";
import { releaseSoon } from "../src/server/paced-releases.js";

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("releasing closed subscriptions", () => {
  it("releases a storm in batches, with turns of the event loop between them, and every one once", async () => {
    const released: number[] = [];
    const all = Array.from({ length: 1_000 }, (_, i) =>
      releaseSoon(() => {
        released.push(i);
        // Some fail, some finish later: neither holds up the rest.
        if (i % 7 === 0) throw new Error("gone already");
        return i % 2 ? Promise.resolve() : undefined;
      }),
    );
    expect(released).toEqual([]); // nothing in the turn the sockets closed in
    const seenPerTurn: number[] = [];
    while (released.length < 1_000) {
      await nextTurn();
      seenPerTurn.push(released.length);
    }
    await Promise.all(all);
    expect(released).toEqual(Array.from({ length: 1_000 }, (_, i) => i));
    // Several turns, none releasing more than a batch.
    expect(seenPerTurn.length).toBeGreaterThanOrEqual(4);
    const perTurn = seenPerTurn.map((count, i) => count - (seenPerTurn[i - 1] ?? 0));
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(256);
  });

  it("releases a lone subscription in the next turn", async () => {
    let released = false;
    const done = releaseSoon(() => {
      released = true;
      return undefined;
    });
    await done;
    expect(released).toBe(true);
  });
});
