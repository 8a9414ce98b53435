// A person opens the web viewer in a real browser (headless Chromium) against a real server:
// dialogs written through the API appear in the list, a dialog's history reads as seed 001's
// event stream, new events appear while the page is open, and branches can be switched.
import { beforeAll, describe, expect, it } from "vitest";
import {
  AppendEventsDocument,
  CreateDialogDocument,
  CreateResponseDocument,
  type CreateResponseInput,
  DialogHeadDocument,
  type DialogqlClient,
} from "../src/client/index.js";
import type { RunningServer } from "../src/server/http-server.js";
import { CHROMIUM, hasChromium, openPage, screenshot, timelineEvents } from "./support/browser.js";
import { testClient } from "./support/client.js";
import { startTestServer } from "./support/live.js";

if (!hasChromium) {
  console.warn(`web viewer tests skipped: ${CHROMIUM} is missing (apt-get install -y chromium; .ci/run does it)`);
}

// Seed 001's "complete" example, as one turn.
const SEED_001_COMPLETE: Omit<CreateResponseInput, "dialogId"> = {
  model: "gpt-4o",
  input: [{ human: { content: "Read file.py" } }],
  output: [
    { reasoning: { content: "I should read the file first...", modelName: "gpt-4o" } },
    { ai: { content: "I'll read it" } },
    { toolCall: { callId: "call_1", toolName: "read_file", args: { path: "file.py" } } },
    { ai: { content: "File contains..." } },
  ],
  usage: { inputTokens: 12, outputTokens: 30, totalTokens: 42 },
};

let server: RunningServer;
let client: DialogqlClient;

beforeAll(async () => {
  if (!hasChromium) return;
  server = await startTestServer();
  client = testClient(server.url, "ws");
});

async function createResponse(input: CreateResponseInput) {
  const { createResponse: result } = await client.request(CreateResponseDocument, { input });
  if (result.__typename !== "Response") throw new Error(`createResponse: ${JSON.stringify(result)}`);
  return result;
}

async function createSeedDialog(title: string) {
  const { createDialog } = await client.request(CreateDialogDocument, { input: { title } });
  if (createDialog.__typename !== "Dialog") throw new Error(JSON.stringify(createDialog));
  const response = await createResponse({ dialogId: createDialog.id, ...SEED_001_COMPLETE });
  return { dialogId: createDialog.id, responseId: response.id };
}

const dialogUrl = (dialogId: string, responseId?: string) =>
  `${server.url}/dialogs/${dialogId}${responseId ? `?response=${responseId}` : ""}`;

describe.skipIf(!hasChromium)("the web viewer", () => {
  it("lists a dialog created through the API while the page is open, once the tab is looked at again", async () => {
    const { page, errors } = await openPage(`${server.url}/`);
    await page.getByTestId("new-chat").waitFor({ timeout: 10_000 });
    await page.getByTestId("dialog-count").filter({ hasText: "dialogs" }).waitFor({ timeout: 10_000 });
    const { dialogId } = await createSeedDialog("Created while watching the list");
    // An idle tab does not poll; coming back to it (focus) reads the list again.
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));

    const item = page.locator(`[data-dialog-id="${dialogId}"]`);
    await item.waitFor({ timeout: 10_000 });
    expect(await item.locator(".dialog-title").textContent()).toBe("Created while watching the list");
    await screenshot(page, "viewer-dialog-list");
    expect(errors).toEqual([]);
  });

  it("shows seed 001's complete history: five events in order, each drawn as its type", async () => {
    const { dialogId, responseId } = await createSeedDialog("Seed 001: complete");
    const { page, errors } = await openPage(dialogUrl(dialogId));
    await page.locator("[data-testid=event]").nth(4).waitFor({ timeout: 10_000 });

    expect(await timelineEvents(page)).toEqual([
      { type: "HUMAN", seq: 1, text: "Read file.py" },
      { type: "REASONING", seq: 2, text: "I should read the file first...I should read the file first..." },
      { type: "AI", seq: 3, text: "I'll read it" },
      { type: "TOOL_CALL", seq: 4, text: '{\n  "path": "file.py"\n}' },
      { type: "AI", seq: 5, text: "File contains..." },
    ]);
    // Reasoning is collapsed, with its model's name; the tool call names its tool.
    const reasoning = page.locator('[data-event-type="REASONING"]');
    expect(await reasoning.locator("details").getAttribute("open")).toBeNull();
    expect(await reasoning.locator(".model").textContent()).toBe("gpt-4o");
    expect(await page.locator('[data-event-type="TOOL_CALL"] .tool-name').textContent()).toBe("read_file");
    // The turn's boundary: status, model and token usage.
    const boundary = page.locator(`[data-response-id="${responseId}"]`);
    expect(await boundary.locator(".status").textContent()).toBe("completed");
    expect(await boundary.locator(".model").textContent()).toBe("gpt-4o");
    expect(await boundary.locator(".usage").textContent()).toBe("12 in · 30 out · 42 total tokens");
    expect(await page.locator("[data-testid=live-indicator]").textContent()).toContain("live");
    await screenshot(page, "viewer-seed-001-history");
    expect(errors).toEqual([]);
  });

  it("opens a long dialog with one read of its last 200 events, and shows earlier ones on request", async () => {
    const turn = (n: number) => ({
      input: [{ human: { content: `Question ${n}` } }],
      output: Array.from({ length: 249 }, (_, i) => ({ ai: { content: `Answer ${n}.${i}` } })),
    });
    const first = await createResponse(turn(1));
    const dialogId = first.dialog.id;
    await createResponse({ previousResponseId: first.id, ...turn(2) });
    const { page, errors } = await openPage(`${server.url}/`);
    await page.getByTestId("new-chat").waitFor({ timeout: 10_000 });
    const historyReads: Record<string, unknown>[] = [];
    page.on("request", (request) => {
      const body = request.postDataJSON() as { query?: string; variables?: Record<string, unknown> } | null;
      if (body?.query?.includes("query DialogHistory")) historyReads.push(body.variables ?? {});
    });
    await page.goto(dialogUrl(dialogId));
    await page.locator('[data-testid=event][data-seq="500"]').waitFor({ timeout: 10_000 });

    expect(await page.locator("[data-testid=event]").count()).toBe(200);
    expect(await page.getByTestId("event-count").textContent()).toBe("500 events");
    // The window first, read backwards from the end; never the whole context from its start.
    expect(historyReads[0]).toMatchObject({ last: 200, before: null });
    expect(historyReads.filter((variables) => variables.first != null)).toEqual([]);
    const earlier = page.getByTestId("show-earlier");
    expect(await earlier.textContent()).toContain("300 more");
    await earlier.click();
    await page.locator('[data-testid=event][data-seq="1"]').waitFor({ timeout: 10_000 });
    expect(await page.locator("[data-testid=event]").count()).toBe(500);
    expect(await earlier.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("shows events written through the API while the page is open, without a reload", async () => {
    const started = await createResponse({ model: "agent", input: [{ human: { content: "Weather in Oslo?" } }] });
    const { page, errors } = await openPage(dialogUrl(started.dialog.id));
    await page.locator('[data-event-type="HUMAN"]').waitFor({ timeout: 10_000 });
    await page.locator("[data-testid=live-indicator].live-live").waitFor({ timeout: 10_000 });
    // Survives only as long as the document does: a reload would lose it.
    await page.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));

    await client.request(AppendEventsDocument, {
      input: {
        responseId: started.id,
        events: [{ toolCall: { callId: "call_w", toolName: "weather", args: { city: "Oslo" } } }],
      },
    });
    await page.locator('[data-event-type="TOOL_CALL"]').waitFor({ timeout: 2_000 });

    await createResponse({
      dialogId: started.dialog.id,
      input: [{ toolResult: { callId: "call_w", content: "4°C, rain" } }],
      output: [{ ai: { content: "It is **4°C** and raining." } }],
    });
    await page.locator('[data-event-type="AI"]').waitFor({ timeout: 2_000 });

    expect((await timelineEvents(page)).map((e) => `${e.seq} ${e.type}`)).toEqual([
      "1 HUMAN",
      "2 TOOL_CALL",
      "3 TOOL_RESULT",
      "4 AI",
    ]);
    expect(await page.locator('[data-event-type="AI"] strong').textContent()).toBe("4°C");
    expect(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
    await screenshot(page, "viewer-live-events");
    expect(errors).toEqual([]);
  });

  it("switches to a sibling branch and shows that branch's history", async () => {
    const root = await createResponse({
      input: [{ human: { content: "Pick a colour" } }],
      output: [{ ai: { content: "Blue" } }],
    });
    const dialogId = root.dialog.id;
    const blue = await createResponse({
      previousResponseId: root.id,
      input: [{ human: { content: "Why blue?" } }],
      output: [{ ai: { content: "It is calm." } }],
    });
    const green = await createResponse({
      previousResponseId: root.id,
      input: [{ human: { content: "Something else?" } }],
      output: [{ ai: { content: "Green, then." } }],
    });
    const { page, errors } = await openPage(dialogUrl(dialogId));
    await page.getByText("Green, then.").waitFor({ timeout: 10_000 });
    const switcher = page.locator(`[data-response-id="${green.id}"] [data-testid=branch-switcher]`);
    await switcher.waitFor({ timeout: 10_000 });
    expect(await switcher.locator("span").first().textContent()).toBe("branch 2 of 2");

    await switcher.locator(`[data-branch-id="${blue.id}"]`).click();
    await page.getByText("It is calm.").waitFor({ timeout: 10_000 });
    expect(new URL(page.url()).search).toBe(`?response=${blue.id}`);
    expect((await timelineEvents(page)).map((e) => e.text)).toEqual([
      "Pick a colour",
      "Blue",
      "Why blue?",
      "It is calm.",
    ]);
    expect(await page.locator(`[data-response-id="${blue.id}"] .branch.current .branch-number`).textContent()).toBe(
      "1",
    );
    expect(await page.locator(`[data-response-id="${blue.id}"] .branch.current .branch-preview`).textContent()).toBe(
      "Why blue?",
    );
    await screenshot(page, "viewer-branch-switch");

    // And back: the newest branch is the head, followed live again.
    await page.locator(`[data-response-id="${blue.id}"] [data-branch-id="${green.id}"]`).click();
    await page.getByText("Green, then.").waitFor({ timeout: 10_000 });
    expect(new URL(page.url()).pathname).toBe(`/dialogs/${dialogId}`);
    expect(errors).toEqual([]);
  });

  it("stores a human message typed into the page as a new turn, and shows it", async () => {
    const { dialogId, responseId } = await createSeedDialog("Asked from the page");
    const { page, errors } = await openPage(dialogUrl(dialogId));
    await page.locator("[data-testid=event]").nth(4).waitFor({ timeout: 10_000 });

    await page.getByLabel("Human message").fill("Now summarise it in *one* line");
    await page.getByRole("button", { name: "Send" }).click();
    const asked = page.locator('[data-event-type="HUMAN"][data-seq="6"]');
    await asked.waitFor({ timeout: 10_000 });
    expect(await asked.locator(".event-body").textContent()).toBe("Now summarise it in one line");
    expect(await page.getByTestId("composer-input").inputValue()).toBe("");
    // With no model, the page says the turn waits, and the next message written is its answer.
    await page.getByTestId("no-model-note").filter({ hasText: "waits for an answer" }).waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("composer-role").inputValue()).toBe("ai");

    // Stored through useCreateResponse: a new IN_PROGRESS turn continuing the seed's response.
    const head = await client.request(DialogHeadDocument, { id: dialogId });
    expect(head.dialog?.head).toMatchObject({ status: "IN_PROGRESS", previousResponse: { id: responseId } });
    const boundary = page.locator(`[data-response-id="${head.dialog!.head!.id}"]`);
    expect(await boundary.locator(".status").textContent()).toBe("in progress");
    await screenshot(page, "viewer-composer");
    expect(errors).toEqual([]);
  });

  it("says clearly that a dialog does not exist", async () => {
    const { page, errors } = await openPage(dialogUrl("01JNOSUCHDIALOG0000000000"));
    const message = page.locator("[data-testid=not-found]");
    await message.waitFor({ timeout: 10_000 });
    expect(await message.locator("p").first().textContent()).toBe("Dialog 01JNOSUCHDIALOG0000000000 not found");
    await screenshot(page, "viewer-not-found");
    expect(errors).toEqual([]);
  });
});
