// Latency summaries. Percentiles by nearest rank on a sorted copy.
export function percentile(samples: number[], p: number) {
  if (!samples.length) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const summarize = (samples: number[]) => ({
  count: samples.length,
  p50: percentile(samples, 50),
  p99: percentile(samples, 99),
  // A loop, not Math.max(...samples): a spread of 100,000+ samples overflows the stack.
  max: samples.length ? samples.reduce((a, b) => (b > a ? b : a)) : NaN,
  min: samples.length ? samples.reduce((a, b) => (b < a ? b : a)) : NaN,
});

/** Times `work` `iterations` times after `warmup` untimed runs; milliseconds per run. */
export async function timeEach(iterations: number, work: () => Promise<unknown>, warmup = 3) {
  for (let i = 0; i < warmup; i++) await work();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await work();
    samples.push(performance.now() - start);
  }
  return samples;
}
