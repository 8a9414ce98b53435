// The keys of a client's message that dialogql has no field for are kept as they came
// (src/vocabulary/provider-fields.ts), including one named "__proto__" in a parsed JSON body.
import { describe, expect, it } from "vitest";
import { extraKeys } from "../src/vocabulary/provider-fields.js";

describe("extraKeys", () => {
  it("keeps the unknown keys and none of the known ones", () => {
    const message = JSON.parse('{"role":"user","content":"hi","name":"ada","cache_control":{"type":"ephemeral"}}');
    expect(extraKeys(message, ["role", "content"])).toEqual({ name: "ada", cache_control: { type: "ephemeral" } });
    expect(extraKeys(JSON.parse('{"role":"user","content":"hi"}'), ["role", "content"])).toBeUndefined();
  });

  it('keeps a "__proto__" key of a parsed body as a key, not as the copy\'s prototype', () => {
    const message = JSON.parse('{"role":"user","content":"hi","__proto__":{"name":"x"}}');
    const extra = extraKeys(message, ["role", "content"])!;
    expect(Object.getPrototypeOf(extra)).toBe(Object.prototype);
    expect((extra as { name?: unknown }).name).toBeUndefined();
    expect(JSON.stringify(extra)).toBe('{"__proto__":{"name":"x"}}');
  });
});
