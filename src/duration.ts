// Durations in configuration, written the way operators say them: "90s", "30m", "24h", "7d", "2w".
const unitMs = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** Milliseconds in `text`, or null when it is not a duration. */
export function parseDuration(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)\s*$/.exec(text);
  if (!match) return null;
  const ms = Number(match[1]) * unitMs[match[2] as keyof typeof unitMs];
  return ms > 0 && Number.isFinite(ms) ? ms : null;
}
