// `stream_options.include_obfuscation` (default true, as OpenAI streams): every delta event
// carries an `obfuscation` field of random characters that pads the delta to a multiple of
// PAD_TO characters, so the sizes of encrypted frames say less about the tokens inside them (a
// mitigation OpenAI applies against side-channel attacks on streamed text).
import { getRandomValues } from "node:crypto";

const PAD_TO = 32;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

// The CSPRNG's bytes drawn 4 KB at a time (a call per delta cost more than the rest of the padding).
const pool = new Uint8Array(4096);
let next = pool.length;

/** Random padding for a delta of `length` characters: at least one character, up to the next multiple of PAD_TO. */
export function obfuscationFor(length: number): string {
  const size = PAD_TO - (length % PAD_TO);
  if (next + size > pool.length) {
    getRandomValues(pool);
    next = 0;
  }
  let padding = "";
  for (const end = next + size; next < end; next++) padding += ALPHABET[pool[next]! % ALPHABET.length];
  return padding;
}

/** The event with its padding when it is a delta event (`*.delta`, carrying a string `delta`). */
export function obfuscated<E extends { type: string }>(event: E): E {
  const delta = (event as { delta?: unknown }).delta;
  if (!event.type.endsWith(".delta") || typeof delta !== "string") return event;
  return { ...event, obfuscation: obfuscationFor(delta.length) };
}
