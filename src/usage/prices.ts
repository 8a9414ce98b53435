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
  /** What `tokens` of `model` cost, and how many of them had no price. */
  costOf(model: string | null | undefined, tokens: TokenCounts): { cost: number; unpricedTokens: number };
}

export const DEFAULT_PRICE_FILE = new URL("../../config/model-prices.json", import.meta.url).pathname;

export function loadPriceBook(file: string = DEFAULT_PRICE_FILE): PriceBook {
  let parsed: z.infer<typeof PriceFile>;
  try {
    parsed = PriceFile.parse(JSON.parse(readFileSync(file, "utf8")));
  } catch (error) {
    throw new Error(`MODEL_PRICES: cannot use ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return priceBook(parsed.models, parsed.currency);
}

export function priceBook(models: Record<string, ModelPrice>, currency = "USD"): PriceBook {
  const exact = new Map<string, ModelPrice>();
  const prefixes: [string, ModelPrice][] = [];
  for (const [name, price] of Object.entries(models)) {
    if (name.endsWith("*")) prefixes.push([name.slice(0, -1), price]);
    else exact.set(name, price);
  }
  prefixes.sort((a, b) => b[0].length - a[0].length);
  const priceOf = (model: string | null | undefined) =>
    model == null ? null : (exact.get(model) ?? prefixes.find(([prefix]) => model.startsWith(prefix))?.[1] ?? null);
  return {
    currency,
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
