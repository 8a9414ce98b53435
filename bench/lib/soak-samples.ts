// Memory and event-loop samples of the soak's server processes, read from their /metrics every
// 10 s (prom-client's process figures, src/metrics.ts): where memory goes (the V8 heap, `external`
// and its ArrayBuffers, or the rest of RSS: code, Prisma's WASM compiler, malloc's arenas) and how
// far each event loop lagged in those 10 s (the lag histogram is reset at each scrape).
import { loadavg } from "node:os";

export type Sample = {
  atS: number;
  load: number;
  instances: { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number; lag: Lag }[];
};
type Lag = { mean: number; p99: number; max: number };

const FIELDS = {
  rss: "dialogql_process_resident_memory_bytes",
  heapTotal: "dialogql_nodejs_heap_size_total_bytes",
  heapUsed: "dialogql_nodejs_heap_size_used_bytes",
  external: "dialogql_nodejs_external_memory_bytes",
  arrayBuffers: "dialogql_nodejs_array_buffers_bytes",
  lagMean: "dialogql_nodejs_eventloop_lag_mean_seconds",
  lagP99: "dialogql_nodejs_eventloop_lag_p99_seconds",
  lagMax: "dialogql_nodejs_eventloop_lag_max_seconds",
} as const;

function parse(text: string) {
  const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text)?.[1] ?? NaN);
  const mib = (name: string) => value(name) / 2 ** 20;
  return {
    rss: mib(FIELDS.rss),
    heapTotal: mib(FIELDS.heapTotal),
    heapUsed: mib(FIELDS.heapUsed),
    external: mib(FIELDS.external),
    arrayBuffers: mib(FIELDS.arrayBuffers),
    lag: { mean: value(FIELDS.lagMean) * 1000, p99: value(FIELDS.lagP99) * 1000, max: value(FIELDS.lagMax) * 1000 },
  };
}

/** Scrapes every instance every `everyMs` until stopped; a failed scrape is a row of NaN, not an end. */
export function sampleInstances(urls: string[], everyMs = 10_000) {
  const started = Date.now();
  const samples: Sample[] = [];
  const scrape = async () => {
    const instances = await Promise.all(
      urls.map((url) =>
        fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5_000) })
          .then((response) => response.text())
          .then(parse, () => parse("")),
      ),
    );
    samples.push({ atS: Math.round((Date.now() - started) / 1000), load: loadavg()[0]!, instances });
  };
  void scrape();
  const timer = setInterval(() => void scrape(), everyMs);
  return {
    samples,
    stop: () => clearInterval(timer),
  };
}

/** One line per sample: per instance RSS / heap used of total / external (ArrayBuffers) in MiB, lag in ms. */
export function formatSamples(samples: Sample[]): string[] {
  const n = (x: number) => (Number.isNaN(x) ? "?" : Math.round(x).toString());
  return [
    "t(s) load | per instance: RSS heapUsed/heapTotal ext(arrayBuffers) MiB, loop lag mean/p99/max ms",
    ...samples.map(
      (s) =>
        `${String(s.atS).padStart(4)} ${s.load.toFixed(1).padStart(4)} | ` +
        s.instances
          .map(
            (i) =>
              `${n(i.rss)} ${n(i.heapUsed)}/${n(i.heapTotal)} ${n(i.external)}(${n(i.arrayBuffers)}) ` +
              `${n(i.lag.mean)}/${n(i.lag.p99)}/${n(i.lag.max)}`,
          )
          .join(" | "),
    ),
  ];
}
