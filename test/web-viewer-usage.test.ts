// The viewer answers "what did this dialog, this branch cost" in a dialog's header, and shows the
// tenant's spend per day and model on /usage, in a real browser.
import { beforeAll, expect, it } from "vitest";
import { DEVELOPMENT_TENANT } from "../src/auth/authenticator.js";
import type { RunningServer } from "../src/server/http-server.js";
import { createResponse } from "../src/services/responses.js";
import { hasChromium, openPage } from "./support/browser.js";
import { store } from "./support/database.js";
import { startTestServer } from "./support/live.js";

let server: RunningServer;
beforeAll(async () => {
  if (!hasChromium) return;
  server = await startTestServer();
});

const turn = (previousResponseId: string | null, model: string, inputTokens: number, outputTokens: number) => ({
  previousResponseId,
  model,
  input: [{ human: { content: `question for ${model}` } }],
  output: [{ ai: { content: "answer" } }],
  usage: { inputTokens, outputTokens },
});

it.skipIf(!hasChromium)("shows a dialog's and a branch's totals, and a usage page per day and model", async () => {
  const root = await createResponse(store, turn(null, "gpt-4o", 1_000_000, 100_000), DEVELOPMENT_TENANT);
  await createResponse(store, turn(root.responseId, "gpt-4o", 1_000_000, 0), DEVELOPMENT_TENANT);
  const branch = await createResponse(
    store,
    turn(root.responseId, "claude-sonnet-4-5", 500_000, 0),
    DEVELOPMENT_TENANT,
  );

  // gpt-4o: 2.50 per million in, 10 out; claude-sonnet-4*: 3 in.
  const { page, errors } = await openPage(`${server.url}/dialogs/${root.dialogId}?response=${branch.responseId}`);
  const dialogUsage = page.locator("[data-testid=dialog-usage]");
  await dialogUsage.waitFor({ timeout: 15_000 });
  expect(await dialogUsage.textContent()).toBe("dialog: 2.6M tokens · $7.50");
  expect(await page.locator("[data-testid=branch-usage]").textContent()).toBe("this branch: 1.6M tokens · $5.00");

  await page.locator("a.usage-link").click();
  await page.locator("[data-testid=usage-row]").nth(1).waitFor({ timeout: 15_000 });
  const rows = await page.locator("[data-testid=usage-row]").allTextContents();
  const today = new Date().toISOString().slice(0, 10);
  expect(rows).toEqual([`${today}claude-sonnet-4-51500K$1.50`, `${today}gpt-4o22.1M$6.00`]);
  expect(await page.locator("[data-testid=usage-day]").count()).toBe(1);
  expect(await page.locator("[data-testid=usage-total]").textContent()).toContain("$7.50");
  expect(errors).toEqual([]);
});
