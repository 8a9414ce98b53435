// `stream_options.include_obfuscation` (default true, as OpenAI streams): every delta event
// carries an `obfuscation` field of random characters that pads the delta to a multiple of
// PAD_TO characters, so the sizes of encrypted frames say less about the tokens inside them (a
// mitigation OpenAI applies against side-channel attacks on streamed text).
import { randomBytes } from "node:crypto";

const PAD_TO = 32;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Random padding for a delta of `length` characters: at least one character, up to the next multiple of PAD_TO. */
export function obfuscationFor(length: number): string {
  const size = PAD_TO - (length % PAD_TO);
  return [...randomBytes(size)].map((byte) => ALPHABET[byte % ALPHABET.length]).join("");
}

/** The event with its padding when it is a delta event (`*.delta`, carrying a string `delta`). */
export function obfuscated<E extends { type: string }>(event: E): E {
  const delta = (event as { delta?: unknown }).delta;
  if (!event.type.endsWith(".delta") || typeof delta !== "string") return event;
  return { ...event, obfuscation: obfuscationFor(delta.length) };
}
