// Waiting for a condition the test cannot be told about (a listener registered on the server, a
// metric raised, a count of writes reached): checked every 10 ms, failing with `what` after the
// bound. Never a fixed sleep: the wait ends as soon as the condition holds.
export async function until(condition: () => boolean | Promise<boolean>, what = "the condition", timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
