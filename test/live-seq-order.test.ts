// A dialog's payloads reach its listeners in seq order (src/live/seq-order.ts): one published a
// moment before the one it follows waits for it, once per instance, instead of every subscriber
// finding the gap and reading it from the database. What waits longer than the hold is handed on
// as it is (a lost payload: the subscribers repair the gap from the database, as before).
import { describe, expect, it } from "vitest";
import { type Place, SeqOrder } from "../src/live/seq-order.js";

type Message = { name: string; place: Place };
const write = (previousSeq: number, seq: number): Message => ({
  name: `${previousSeq}→${seq}`,
  place: { previousSeq, seq },
});
const text = (name: string): Message => ({ name, place: "after" });

/** An order whose hand-ons are recorded; `handedOn(n)` resolves once n messages were handed on. */
function ordered(holdMs = 60_000) {
  const names: string[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const order = new SeqOrder<Message>(
    (message) => message.place,
    (message) => {
      names.push(message.name);
      for (const waiter of waiters) if (names.length >= waiter.count) waiter.resolve();
    },
    holdMs,
  );
  const handedOn = (count: number) =>
    new Promise<void>((resolve) => (names.length >= count ? resolve() : waiters.push({ count, resolve })));
  return { order, names, handedOn };
}

describe("a dialog's payloads in seq order", () => {
  it("passes payloads that arrive in order at once", () => {
    const { order, names } = ordered();
    for (const message of [write(0, 1), write(1, 3), write(3, 3), write(3, 4)]) order.receive(message);
    expect(names).toEqual(["0→1", "1→3", "3→3", "3→4"]);
    order.close();
  });

  it("holds one that arrives before the one it follows, and hands both on in order when that comes", () => {
    const { order, names } = ordered();
    order.receive(write(0, 1));
    order.receive(write(2, 3));
    order.receive(text("text after 3"));
    order.receive(write(3, 5));
    expect(names).toEqual(["0→1"]);
    order.receive(write(1, 2));
    expect(names).toEqual(["0→1", "1→2", "2→3", "text after 3", "3→5"]);
    order.close();
  });

  it("passes what is older than what was handed on (the subscribers drop what they have)", () => {
    const { order, names } = ordered();
    order.receive(write(0, 4));
    order.receive(write(1, 2));
    order.receive(write(4, 4));
    expect(names).toEqual(["0→4", "1→2", "4→4"]);
    order.close();
  });

  it("hands on what waited, gap and all, once the hold is over", async () => {
    const { order, names, handedOn } = ordered(20);
    order.receive(write(0, 1));
    order.receive(write(2, 3));
    order.receive(write(3, 4));
    await handedOn(3);
    expect(names).toEqual(["0→1", "2→3", "3→4"]);
    // The gap's payload arriving late is older than what was handed on: passed as it is.
    order.receive(write(1, 2));
    expect(names.at(-1)).toBe("1→2");
    order.close();
  });

  it("hands on everything before a resync, and starts again from whatever follows it", () => {
    const { order, names } = ordered();
    order.receive(write(0, 1));
    order.receive(write(5, 6));
    order.receive({ name: "resync", place: "resync" });
    order.receive(write(9, 10));
    expect(names).toEqual(["0→1", "5→6", "resync", "9→10"]);
    order.close();
  });
});
