// A person opens the web viewer of a server that has API keys, in a real browser: the viewer asks
// for a key, says clearly when a wrong one is refused, shows the tenant's dialogs and follows one
// live once the right key is given, keeps the key across a reload, and forgets it when asked.
// (A server without keys never asks: test/web-viewer.test.ts runs in development mode.)
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  AppendEventsDocument,
  CreateResponseDocument,
  type CreateResponseInput,
  type DialogqlClient,
} from "../src/client/index.js";
import type { RunningServer } from "../src/server/http-server.js";
import { CHROMIUM, hasChromium, openPage, screenshot, timelineEvents } from "./support/browser.js";
import { testClient } from "./support/client.js";
import { startTestServer } from "./support/live.js";
import { tenantKey } from "./support/tenants.js";

if (!hasChromium) {
  console.warn(`web viewer tests skipped: ${CHROMIUM} is missing (apt-get install -y chromium; .ci/run does it)`);
}

let server: RunningServer;
let key: string;
let client: DialogqlClient;

beforeAll(async () => {
  if (!hasChromium) return;
  // The key exists before the server starts: it is not in development mode.
  ({ key } = await tenantKey("viewer"));
  server = await startTestServer();
  // Writes go over HTTP only (request), where these headers carry the key.
  client = testClient(server.url, "ws", { authorization: `Bearer ${key}` });
});

async function createResponse(input: CreateResponseInput) {
  const { createResponse: result } = await client.request(CreateResponseDocument, { input });
  if (result.__typename !== "Response") throw new Error(`createResponse: ${JSON.stringify(result)}`);
  return result;
}

// Chromium reports every refused request (HTTP 401) on the console; those are expected here.
const unexpected = (errors: string[]) => errors.filter((error) => !/status of 401/.test(error));

async function signIn(page: Page, apiKey: string) {
  await page.getByLabel("API key").fill(apiKey);
  await page.getByRole("button", { name: "Sign in" }).click();
}

describe.skipIf(!hasChromium)("the web viewer on a server with API keys", () => {
  it("asks for a key, refuses a wrong one with a message, then shows the dialogs live and keeps the key", async () => {
    const started = await createResponse({ model: "agent", input: [{ human: { content: "Weather in Bergen?" } }] });
    const dialogId = started.dialog.id;
    const { page, errors } = await openPage(`${server.url}/dialogs/${dialogId}`);

    const form = page.locator("[data-testid=sign-in]");
    await form.waitFor({ timeout: 10_000 });
    expect(await form.textContent()).toContain("This server requires an API key. Create one with npm run keys");
    expect(await page.locator("[data-testid=sign-in-problem]").count()).toBe(0);
    await screenshot(page, "viewer-api-key-prompt");

    await signIn(page, "dq_" + "x".repeat(43));
    const problem = page.locator("[data-testid=sign-in-problem]");
    await problem.waitFor({ timeout: 10_000 });
    expect(await problem.textContent()).toBe("That key was refused: Invalid or revoked API key");
    // A refused key is not kept, so nothing retries it.
    expect(await page.evaluate(() => localStorage.getItem("dialogql.apiKey"))).toBeNull();
    await screenshot(page, "viewer-api-key-refused");

    await signIn(page, key);
    await page.locator(`[data-dialog-id="${dialogId}"]`).waitFor({ timeout: 10_000 });
    await page.locator('[data-event-type="HUMAN"]').waitFor({ timeout: 10_000 });
    await page.locator("[data-testid=live-indicator].live-live").waitFor({ timeout: 10_000 });
    expect(await page.evaluate(() => localStorage.getItem("dialogql.apiKey"))).toBe(key);

    // Live over graphql-ws with the key: a write through the API appears without a reload.
    await client.request(AppendEventsDocument, {
      input: { responseId: started.id, events: [{ ai: { content: "Rain, **9°C**." } }] },
    });
    await page.locator('[data-event-type="AI"]').waitFor({ timeout: 5_000 });
    expect((await timelineEvents(page)).map((e) => `${e.seq} ${e.type} ${e.text}`)).toEqual([
      "1 HUMAN Weather in Bergen?",
      "2 AI Rain, 9°C.",
    ]);
    expect(await page.locator("[data-testid=live-indicator]").textContent()).toContain("live");
    await screenshot(page, "viewer-api-key-signed-in");

    // A reload keeps the key: no prompt, the dialog again.
    await page.reload();
    await page.locator('[data-event-type="AI"]').waitFor({ timeout: 10_000 });
    expect(await page.locator("[data-testid=sign-in]").count()).toBe(0);

    // Forgetting it: the server asks again, with nothing refused to report.
    await page.getByRole("button", { name: "Forget key" }).click();
    await form.waitFor({ timeout: 10_000 });
    expect(await page.locator("[data-testid=sign-in-problem]").count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("dialogql.apiKey"))).toBeNull();
    expect(unexpected(errors)).toEqual([]);
  });
});
