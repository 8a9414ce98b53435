// The viewer's export menu, in a real browser: a dialog imported as UIMessages downloads in every
// format, each file holding exactly what the API's export of that branch gives.
import { readFile } from "node:fs/promises";
import { beforeAll, expect, it } from "vitest";
import { type DialogqlClient, ImportMessagesDocument, ResponseMessagesDocument } from "../src/client/index.js";
import type { RunningServer } from "../src/server/http-server.js";
import { hasChromium, openPage } from "./support/browser.js";
import { testClient } from "./support/client.js";
import { startTestServer } from "./support/live.js";

let server: RunningServer;
let client: DialogqlClient;
beforeAll(async () => {
  if (!hasChromium) return;
  server = await startTestServer();
  client = testClient(server.url, "ws");
});

it.skipIf(!hasChromium)("downloads the branch in every format", async () => {
  const { importMessages } = await client.request(ImportMessagesDocument, {
    input: {
      format: "AI_SDK_UI",
      messages: [
        { id: "u1", role: "user", parts: [{ type: "text", text: "Hi" }] },
        { id: "a1", role: "assistant", parts: [{ type: "step-start" }, { type: "text", text: "Hello!" }] },
      ],
    },
  });
  if (importMessages.__typename !== "Response") throw new Error(JSON.stringify(importMessages));
  const { page, errors } = await openPage(`${server.url}/dialogs/${importMessages.dialog.id}`);
  await page.locator("[data-testid=event]").nth(1).waitFor({ timeout: 10_000 });

  for (const [format, suffix] of [
    ["OPENAI_CHAT", "chat"],
    ["OPENAI_RESPONSES", "responses"],
    ["ANTHROPIC_MESSAGES", "anthropic"],
    ["AI_SDK_UI", "ui-messages"],
  ] as const) {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.locator(`[data-testid=export-menu] button[data-format=${format}]`).first().click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${importMessages.id}.${suffix}.json`);
    const saved = JSON.parse(await readFile((await download.path())!, "utf8"));
    const { response } = await client.request(ResponseMessagesDocument, { responseId: importMessages.id, format });
    expect(saved).toEqual(response!.fittedMessages.messages);
  }
  expect(errors).toEqual([]);
});
