// A person watches an answer being typed in the web viewer (headless Chromium, real server),
// reloads the page in the middle of it, and sees the text continue from where it was with nothing
// doubled; when the agent finishes, the committed answer takes the typed text's place.
import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { RunningServer } from "../src/server/http-server.js";
import { CHROMIUM, hasChromium, openPage, screenshot, timelineEvents } from "./support/browser.js";
import { writer, member } from "./support/dialogs.js";
import { httpExecutor, startTestServer } from "./support/live.js";
import { STREAM_TEXT } from "./support/text-stream.js";

if (!hasChromium) console.warn(`in-flight text viewer test skipped: ${CHROMIUM} is missing`);

let server: RunningServer;
let run: ReturnType<typeof httpExecutor>;

beforeAll(async () => {
  if (!hasChromium) return;
  server = await startTestServer();
  run = httpExecutor(server);
});

/** Waits until the page shows exactly `text` as the typed answer (fails on anything else after the timeout). */
async function typedTextIs(page: Page, text: string) {
  await page.waitForFunction(
    (expected) => document.querySelector("[data-testid=in-flight-content]")?.textContent === expected,
    text,
    { timeout: 15_000 },
  );
}

describe.skipIf(!hasChromium)("the web viewer and in-flight text", () => {
  it("shows the answer as it is typed, continues it after a reload with nothing doubled, then shows the committed answer", async () => {
    const write = writer(run);
    const started = await write.createResponse({ input: [{ human: { content: "Write me a haiku" } }] });
    const responseId: string = started.id;
    let text = "";
    const type = async (delta: string) => {
      const { streamText } = await run(STREAM_TEXT, { input: { responseId, type: "AI", delta, offset: text.length } });
      expect(streamText.__typename).toBe("TextPosition");
      text += delta;
    };

    const { page, errors } = await openPage(`${server.url}/dialogs/${started.dialog.id}`);
    await page.locator("[data-testid=event]").first().waitFor({ timeout: 15_000 });
    for (const word of ["An ", "old ", "silent ", "pond... "]) await type(word);
    await typedTextIs(page, text);
    expect(await page.locator("[data-testid=in-flight-text] .live-cursor").count()).toBe(1);
    await screenshot(page, "viewer-in-flight-text");

    // Reload while the agent keeps typing: deltas land before, during and after the page loads.
    const reloading = page.reload();
    for (const word of ["A ", "frog ", "jumps "]) await type(word);
    await reloading;
    for (const word of ["into ", "the ", "pond, "]) await type(word);
    await typedTextIs(page, text);
    for (const word of ["splash! ", "Silence ", "again."]) await type(word);
    await typedTextIs(page, text);
    expect(await page.locator("[data-testid=in-flight-text]").count()).toBe(1);

    expect(member(await write.completeResponse({ responseId }), "Response").status).toBe("COMPLETED");
    await page.locator("[data-testid=in-flight-text]").waitFor({ state: "detached", timeout: 15_000 });
    expect(await timelineEvents(page)).toEqual([
      { type: "HUMAN", seq: 1, text: "Write me a haiku" },
      { type: "AI", seq: 2, text },
    ]);
    await screenshot(page, "viewer-in-flight-committed");
    expect(errors).toEqual([]);
  });
});
