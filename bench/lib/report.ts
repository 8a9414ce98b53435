// What a scenario reports: figures, each with the raw baseline measured in the same run.
export interface Figure {
  scenario: string;
  metric: string;
  value: number;
  unit: string;
  /** The same work done with the raw library, when there is one. */
  baseline?: number;
  /** value / baseline, or baseline / value for throughputs: always "how many times worse". */
  ratio?: number;
  /** Human-readable target, e.g. "≤ 10 ms" or "ratio ≥ 0.5". */
  target?: string;
  met?: boolean;
  note?: string;
  /**
   * One of the goals (docs/performance.md), printed in the goals table at the end of `npm run bench`:
   * `baseline` is then the peer's figure (named by `peer`), and `ratio` is dialogql ÷ peer.
   */
  goal?: boolean;
  /** Who measured `baseline`: "raw SQL" (the default), "yoga + pg", "raw ws"… */
  peer?: string;
}

/** Scenarios print exactly one line starting with this marker, followed by JSON. */
export const RESULT_MARKER = "BENCH_RESULT ";

export function emit(figures: Figure[]) {
  process.stdout.write(`${RESULT_MARKER}${JSON.stringify(figures)}\n`);
}

export const smoke = process.env.BENCH_SMOKE === "1";
