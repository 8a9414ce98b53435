// With a model configured, the web viewer is a chat: a message typed into the page is answered by
// the model (through generateResponse, here the upstream stand-in), live; "Regenerate from here"
// asks again for the same turn and shows the new branch.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { store, testConfig } from "./support/database.js";
import { CreateResponseDocument, DialogHeadDocument, type DialogqlClient } from "../src/client/index.js";
import { createModelCatalog } from "../src/generation/providers.js";
import { type RunningServer, startServer } from "../src/server/http-server.js";
import { hasChromium, openPage, screenshot } from "./support/browser.js";
import { testClient } from "./support/client.js";
import { startUpstreamStandIn, type UpstreamStandIn } from "./support/upstream-stand-in.js";

let server: RunningServer;
let upstream: UpstreamStandIn;
let client: DialogqlClient;

beforeAll(async () => {
  if (!hasChromium) return;
  upstream = await startUpstreamStandIn();
  const models = createModelCatalog({
    OPENAI_BASE_URL: upstream.url,
    UPSTREAM_API: "chat",
    UPSTREAM_MAX_RETRIES: 0,
    DEFAULT_MODEL: "stand-in-1",
  });
  server = await startServer({ store, config: testConfig, port: 0, models });
  client = testClient(server.url, "ws");
});
afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

describe.skipIf(!hasChromium)("the web viewer with a model", () => {
  it("chats through the model and regenerates a turn as a new branch", async () => {
    const { createResponse: seed } = await client.request(CreateResponseDocument, {
      input: { input: [{ human: { content: "Hello" } }], output: [{ ai: { content: "Hi, how can I help?" } }] },
    });
    if (seed.__typename !== "Response") throw new Error(JSON.stringify(seed));
    const dialogId = seed.dialog.id;
    const { page, errors } = await openPage(`${server.url}/dialogs/${dialogId}`);
    await page.getByText("Hi, how can I help?").waitFor({ timeout: 10_000 });
    // The composer proposes the default model once the viewer has read the configured ones.
    await expect.poll(() => page.locator("[data-testid=composer-model]").inputValue()).toBe("stand-in-1");

    upstream.script({ output: [{ text: "Paris is the capital." }] }, { output: [{ text: "It is Paris." }] });
    await page.getByLabel("Human message").fill("Capital of France?");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByText("Paris is the capital.").waitFor({ timeout: 10_000 });
    // The turn's own status in the timeline (the dialog list shows the dialog's status too).
    const inProgress = page.getByTestId("timeline").locator(".status", { hasText: "in progress" });
    await inProgress.waitFor({ state: "detached", timeout: 10_000 });
    expect(upstream.requests.at(-1)!.body).toMatchObject({
      model: "stand-in-1",
      messages: [
        { role: "user", content: "Hello" },
        { role: "assistant", content: "Hi, how can I help?" },
        { role: "user", content: "Capital of France?" },
      ],
    });
    const first = (await client.request(DialogHeadDocument, { id: dialogId })).dialog!.head!;
    expect(first).toMatchObject({ status: "COMPLETED", previousResponse: { id: seed.id } });

    await page.locator(`[data-response-id="${first.id}"] [data-testid=regenerate]`).click();
    await page.getByText("It is Paris.").waitFor({ timeout: 10_000 });
    await inProgress.waitFor({ state: "detached", timeout: 10_000 });
    const second = (await client.request(DialogHeadDocument, { id: dialogId })).dialog!.head!;
    expect(second.id).not.toBe(first.id);
    expect(second).toMatchObject({ status: "COMPLETED", previousResponse: { id: seed.id } });
    expect(upstream.requests.at(-1)!.body.messages!.at(-1)).toEqual({ role: "user", content: "Capital of France?" });
    await screenshot(page, "viewer-generate");
    expect(errors).toEqual([]);
  });
});
