// In-flight options of the checkpoint cost tests: a still clock and no idle sweep, so checkpoints
// are made by characters alone, every `checkpointChars`.
export const checkpointingEvery = (checkpointChars: number) => ({
  clock: () => 1_000_000,
  checkpointMs: 3_600_000,
  checkpointChars,
  idleTimeoutMs: 3_600_000,
  sweepIntervalMs: 3_600_000,
  maxDeltaChars: 10_000,
});
