// Latency of one query as a client in another process sees it (bench/load/http-reader.ts).
import path from "node:path";
import { runTs } from "./child.js";
import { summarize } from "./stats.js";

const reader = path.join(path.dirname(new URL(import.meta.url).pathname), "../load/http-reader.ts");

export async function timeQuery(url: string, query: string, variables: Record<string, unknown>, iterations: number) {
  const [result] = await runTs<{ samples: number[] }[]>(reader, {
    TARGET_URL: url,
    QUERY: query,
    VARIABLES: JSON.stringify(variables),
    ITERATIONS: String(iterations),
  });
  return summarize(result!.samples);
}
