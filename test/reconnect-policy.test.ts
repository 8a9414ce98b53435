// The client's wait before it tries a dropped subscription again: a random share of a doubling
// ceiling, so the subscribers of an instance that died come back spread out, the first at once.
import { describe, expect, it } from "vitest";
import { defaultRetryDelay } from "../src/client/reconnect-policy.js";

describe("defaultRetryDelay", () => {
  it("is a random share of a ceiling doubling from 250 ms to 5 s", () => {
    expect(defaultRetryDelay(1, () => 0)).toBe(0);
    expect(defaultRetryDelay(1, () => 0.5)).toBe(125);
    expect(defaultRetryDelay(2, () => 0.5)).toBe(250);
    expect(defaultRetryDelay(20, () => 0.5)).toBe(2_500);
  });

  it("spreads clients that lost their socket together", () => {
    const first = Array.from({ length: 1_000 }, () => defaultRetryDelay(1));
    expect(Math.max(...first)).toBeLessThan(250);
    expect(new Set(first.map((ms) => Math.floor(ms / 25))).size).toBe(10);
  });
});
