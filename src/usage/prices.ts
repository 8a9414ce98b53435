// The price book: what a million tokens of each kind cost per model, read from a JSON file
// (config/model-prices.json, or MODEL_PRICES) when the store opens. A turn is priced when its
// usage is written, so a later change of prices never rewrites what was spent. A model the book
// does not list costs 0 and its tokens are counted as unpriced, so the gap shows.
import { readFileSync } from "node:fs";
import { z } from "zod";

const ModelPrice = z
  .object({
    input: z.number().nonnegative(),
    cachedInput: z.number().nonnegative().optional(),
    output: z.number().nonnegative(),
  })
  .strict();

const PriceFile = z.object({
  currency: z.string().default("USD"),
  models: z.record(z.string().min(1), ModelPrice),
});

export type ModelPrice = z.infer<typeof ModelPrice>;

/** Token counts as a write carries them: cachedTokens are part of inputTokens, reasoning part of output. */
export interface TokenCounts {
  inputTokens?: number | null;
  outputTokens?: number | null;
  cachedTokens?: number | null;
  reasoningTokens?: number | null;
}

export interface PriceBook {
  currency: string;
  /** The price of `model`: an exact entry, else the longest `prefix*` entry it begins with. */
  priceOf(model: string | null | undefined): ModelPrice | null;
  /** The name of the entry that prices `model` ("gpt-4o*"), or null: a bounded label for metrics. */
  entryOf(model: string | null | undefined): string | null;
  /** What `tokens` of `model` cost, and how many of them had no price. */
  costOf(model: string | null | undefined, tokens: TokenCounts): { cost: number; unpricedTokens: number };
}

export const DEFAULT_PRICE_FILE = new URL("../../config/model-prices.json", import.meta.url).pathname;

export function loadPriceBook(file: string = DEFAULT_PRICE_FILE): PriceBook {
  let parsed: z.infer<typeof PriceFile>;
  try {
    parsed = PriceFile.parse(JSON.parse(readFileSync(file, "utf8")));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`MODEL_PRICES: cannot use ${file}: ${reason}`, { cause: error });
  }
  return priceBook(parsed.models, parsed.currency);
}

export function priceBook(models: Record<string, ModelPrice>, currency = "USD"): PriceBook {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const name of Object.keys(models)) {
    if (name.endsWith("*")) prefixes.push(name.slice(0, -1));
    else exact.add(name);
  }
  prefixes.sort((a, b) => b.length - a.length);
  const entryOf = (model: string | null | undefined) => {
    if (model == null) return null;
    if (exact.has(model)) return model;
    const prefix = prefixes.find((candidate) => model.startsWith(candidate));
    return prefix === undefined ? null : `${prefix}*`;
  };
  const priceOf = (model: string | null | undefined) => {
    const entry = entryOf(model);
    return entry == null ? null : models[entry]!;
  };
  return {
    currency,
    entryOf,
    priceOf,
    costOf(model, tokens) {
      const input = tokens.inputTokens ?? 0;
      const output = tokens.outputTokens ?? 0;
      const price = priceOf(model);
      if (!price) return { cost: 0, unpricedTokens: input + output };
      const cached = Math.min(tokens.cachedTokens ?? 0, input);
      const cost =
        ((input - cached) * price.input + cached * (price.cachedInput ?? price.input) + output * price.output) / 1e6;
      return { cost, unpricedTokens: 0 };
    },
  };
}
