// A person's first session with the viewer as a chat, in headless Chromium against a real server
// whose model is the upstream stand-in (a real HTTP server speaking OpenAI's wire format): a new
// chat sent with Enter, the answer rendered (a table, highlighted code) and followed, a title from
// the first exchange, Shift+Enter for a new line, Stop, a reload mid-answer, an upstream failure
// shown as a sentence with Retry, an edit that branches, the keyboard help, dark mode, a 390 px
// phone, a ChatGPT export imported, and a share link opened in a fresh browser context, live.
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelCatalog } from "../src/generation/providers.js";
import { type RunningServer, startServer } from "../src/server/http-server.js";
import { hasChromium, launchBrowser, openPage } from "./support/browser.js";
import { store, testConfig } from "./support/database.js";
import { startUpstreamStandIn, type UpstreamStandIn } from "./support/upstream-stand-in.js";

// Screenshots for a person to look at; not kept with the repository.
const SHOTS = process.env.CHAT_SCREENSHOTS ?? path.join("/tmp", "dialogql-chat-session");
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
};

let server: RunningServer;
let upstream: UpstreamStandIn;

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
});
afterAll(async () => {
  gates.forEach((open) => open());
  await server?.close();
  await upstream?.close();
});

// Gates a held answer waits on; all opened at the end, so a failed step leaves no request hanging.
const gates: (() => void)[] = [];
const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  gates.push(open);
  return { opened, open };
};

const ANSWER = [
  "Here they are:",
  "",
  "| fruit | colour |",
  "| --- | --- |",
  "| apple | red |",
  "| pear | green |",
  "",
  "```python",
  "def ripe(fruit):",
  "    return True",
  "```",
  ...Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of a long answer.`),
].join("\n");

describe.skipIf(!hasChromium)("a first chat session in the viewer", () => {
  it("chats, stops, reloads, retries, branches, imports and shares", async () => {
    const { page, errors } = await openPage(`${server.url}/`);

    // A new chat: the model picker proposes the server's model; Enter sends.
    await page.getByTestId("new-chat").waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId("composer-model").inputValue(), { timeout: 15_000 }).toBe("stand-in-1");
    await shot(page, "01-new-chat");
    upstream.script({ output: [{ text: ANSWER }] }, { output: [{ text: "Fruit colours" }] });
    const composer = page.getByTestId("composer-input");
    await composer.fill("Which colours are apples and pears?");
    await composer.press("Enter");
    await page.waitForURL(/\/dialogs\//, { timeout: 15_000 });
    const dialogPath = new URL(page.url()).pathname;

    // Markdown: the table is a table, the code is highlighted; the pane followed the answer down.
    await page.locator(".event-ai .markdown table").waitFor({ timeout: 15_000 });
    expect(await page.locator(".event-ai .markdown td").allTextContents()).toEqual(["apple", "red", "pear", "green"]);
    expect(await page.locator(".event-ai pre code.hljs .hljs-keyword").first().textContent()).toBe("def");
    await page.getByText("Line 40 of a long answer.").waitFor();
    // Its lines, one newline apart, are lines (Markdown alone ran them into one paragraph).
    const lines = await page.locator(".event-ai .markdown p", { hasText: "Line 1 of" }).innerText();
    expect(lines).toContain("Line 1 of a long answer.\nLine 2 of a long answer.\n");
    await page.waitForFunction(() => {
      const main = document.querySelector("main.main")!;
      return main.scrollHeight - main.scrollTop - main.clientHeight < 80;
    });
    // The title, written by the model from the first exchange.
    await page.locator(".dialog-header h1", { hasText: "Fruit colours" }).waitFor({ timeout: 15_000 });
    expect(upstream.requests.at(-1)!.body.messages!.at(-1)).toMatchObject({ role: "user" });
    expect(JSON.stringify(upstream.requests.at(-1)!.body.messages)).toContain("Which colours are apples and pears?");
    await shot(page, "02-answer-table-code");
    // The composer sits at the very bottom of the pane as the dialog scrolls above it: nothing of
    // the dialog shows below it (it stopped the pane's 4rem padding short of the bottom before).
    await page.setViewportSize({ width: 1280, height: 500 }); // shorter than the dialog
    await page.evaluate(() => document.querySelector("main.main")!.scrollTo(0, 0));
    const underComposer = await page.evaluate(() => {
      const main = document.querySelector("main.main")!.getBoundingClientRect();
      const at = document.elementFromPoint(main.left + main.width / 2, main.bottom - 4);
      return at?.closest("[data-testid=composer]") ? "composer" : `${at?.tagName}.${at?.className}`;
    });
    expect(underComposer).toBe("composer");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.evaluate(() => document.querySelector("main.main")!.scrollTo(0, 1e9));

    // Shift+Enter is a new line; Stop cancels a turn while it is typed.
    const stopGate = gate();
    upstream.script({
      output: [{ text: "Counting slowly: one, two, three, four." }],
      holdAfterFirstChunk: stopGate.opened,
      holdAfterChunks: 3,
    });
    await composer.fill("line one");
    await composer.press("Shift+Enter");
    await composer.pressSequentially("line two");
    expect(await composer.inputValue()).toBe("line one\nline two");
    await composer.press("Enter");
    await page.getByTestId("in-flight-text").waitFor({ timeout: 15_000 });
    await page.getByTestId("stop").click();
    await page.getByTestId("timeline").locator(".status", { hasText: "cancelled" }).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("stop").count()).toBe(0);
    stopGate.open();
    await shot(page, "03-stopped");

    // A reload in the middle of an answer continues it.
    const reloadGate = gate();
    upstream.script({
      output: [{ text: "Pears ripen after picking." }],
      holdAfterFirstChunk: reloadGate.opened,
      holdAfterChunks: 3,
    });
    await composer.fill("Tell me about pears");
    await composer.press("Enter");
    await page.getByTestId("in-flight-text").waitFor({ timeout: 15_000 });
    await page.reload();
    await page.getByTestId("in-flight-text").waitFor({ timeout: 15_000 });
    reloadGate.open();
    await page.getByText("Pears ripen after picking.").waitFor({ timeout: 15_000 });
    await page.getByTestId("in-flight-text").waitFor({ state: "detached", timeout: 15_000 });

    // The model's server fails: a sentence and a Retry, never raw JSON.
    upstream.script({ output: [], httpError: { status: 500, message: "The upstream is on fire" } });
    await page.getByTestId("composer-input").fill("And plums?");
    await page.getByTestId("composer-input").press("Enter");
    const failure = page.getByTestId("response-error").last();
    await failure.waitFor({ timeout: 15_000 });
    const said = (await failure.textContent())!;
    // The upstream's own words stay in the server's log; the reader gets a sentence.
    expect(said).toContain("The model provider failed (HTTP 500)");
    expect(said.trim().startsWith("{")).toBe(false);
    upstream.script({ output: [{ text: "Plums are purple." }] });
    await page.getByRole("button", { name: "Retry" }).last().click();
    await page.getByText("Plums are purple.").waitFor({ timeout: 15_000 });
    await shot(page, "04-retried");

    // Edit a human message: a new branch from it, labelled as an edit.
    upstream.script({ output: [{ text: "Pears are sweet." }] });
    const pearsQuestion = page.locator(".event-human", { hasText: "Tell me about pears" });
    await pearsQuestion.getByTestId("edit-message").click();
    await page.getByLabel("Edited message").fill("Are pears sweet?");
    await page.getByLabel("Edited message").press("Enter");
    await page.getByText("Pears are sweet.").waitFor({ timeout: 15_000 });
    await page.locator('[data-branch-kind="edited"]').first().waitFor({ timeout: 15_000 });
    expect(await page.getByText("Plums are purple.").count()).toBe(0);
    await shot(page, "05-edited-branch");
    // Regenerating the edited turn: a third branch, which asks what the edit asked, so it is
    // labelled as regenerated (it was labelled "edited" like the edit before).
    upstream.script({ output: [{ text: "Pears are very sweet." }] });
    await page.getByRole("button", { name: "Regenerate" }).last().click();
    await page.getByText("Pears are very sweet.").waitFor({ timeout: 15_000 });
    const kinds = page.getByTestId("branch-switcher").last().locator("[data-branch-kind]");
    await expect.poll(() => kinds.count(), { timeout: 15_000 }).toBe(3);
    expect(await kinds.evaluateAll((links) => links.map((l) => (l as HTMLElement).dataset.branchKind))).toEqual([
      "original",
      "edited",
      "regenerated",
    ]);

    // The keyboard help.
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("?");
    const help = page.getByTestId("keyboard-help");
    await help.waitFor();
    const keys = await help.locator("kbd").allTextContents();
    for (const key of ["/", "j", "k", "?"]) expect(keys).toContain(key);
    await shot(page, "06-keyboard-help");
    await page.keyboard.press("Escape");

    // Dark mode follows the system.
    await page.emulateMedia({ colorScheme: "dark" });
    const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(luminance(background)).toBeLessThan(0.2);
    await shot(page, "07-dark");
    await page.emulateMedia({ colorScheme: "light" });

    // A phone, 390 px wide: the dialog takes the width; the list opens from the top bar.
    await page.setViewportSize({ width: 390, height: 844 });
    const width = await page.getByTestId("dialog-view").evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeGreaterThan(340);
    await shot(page, "08-phone");
    const wider = await page.evaluate(() =>
      [...document.querySelectorAll("main *")]
        .filter((el) => el.getBoundingClientRect().right > 391)
        .map((el) => `${el.tagName}.${el.className}`)
        .slice(0, 8),
    );
    expect(wider).toEqual([]);
    await page.getByTestId("menu").click();
    await page.getByTestId("dialog-list").waitFor();
    await shot(page, "09-phone-list");
    await page.setViewportSize({ width: 1280, height: 900 });

    // Import a ChatGPT export from the file picker.
    await page
      .getByTestId("import-file")
      .setInputFiles(path.join(import.meta.dirname, "fixtures/chat-exports/chatgpt-conversations.json"));
    await page.getByTestId("import-done").filter({ hasText: "2 imported" }).waitFor({ timeout: 20_000 });
    await page.locator(".dialog-item", { hasText: "Trip to Lisbon" }).waitFor({ timeout: 15_000 });
    // Its age is when it was last answered (November 2023), not when it was imported.
    const importedMeta = await page
      .locator(".dialog-item", { hasText: "Trip to Lisbon" })
      .locator(".dialog-meta")
      .innerText();
    expect(importedMeta).toContain("2023");
    expect(importedMeta).not.toContain("ago");
    await shot(page, "10-imported");
    await page.locator(".dialog-item", { hasText: "Trip to Lisbon" }).click();
    await page.locator(".event-ai .markdown table").waitFor({ timeout: 15_000 });
    await shot(page, "11-imported-dialog");

    // Share the first dialog and open the link in a fresh browser (no saved key, no cookies).
    await page.goto(`${server.url}${dialogPath}`);
    await page.getByTestId("share-panel").locator("summary").click();
    await page.getByTestId("create-share-link").click();
    const link = await page.getByTestId("share-link").getByLabel("Share link").inputValue();
    expect(link).toMatch(/\/shared\/[A-Za-z0-9_-]{43}$/);
    const fresh = await (await launchBrowser()).newContext();
    const shared = await fresh.newPage();
    const sharedErrors: string[] = [];
    shared.on("pageerror", (error) => sharedErrors.push(error.message));
    await shared.goto(link);
    await shared.getByTestId("shared-view").waitFor({ timeout: 15_000 });
    await shared.getByText("Which colours are apples and pears?").waitFor();
    expect(await shared.getByTestId("composer").count()).toBe(0);
    // Live: a new turn in the original shows up in the shared page.
    upstream.script({ output: [{ text: "Quinces are yellow." }] });
    await composer.fill("And quinces?");
    await composer.press("Enter");
    await shared.getByText("Quinces are yellow.").waitFor({ timeout: 15_000 });
    await shot(shared, "12-shared");
    await fresh.close();

    expect(sharedErrors).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe.skipIf(!hasChromium)("a dialog's first turn, asked again", () => {
  it("regenerates it and edits its message as branches of the same dialog", async () => {
    const { page, errors } = await openPage(`${server.url}/`);
    await expect.poll(() => page.getByTestId("composer-model").inputValue(), { timeout: 15_000 }).toBe("stand-in-1");
    upstream.script({ output: [{ text: "Apples are red." }] }, { output: [{ text: "Apples" }] });
    const composer = page.getByTestId("composer-input");
    await composer.fill("What colour are apples?");
    await composer.press("Enter");
    await page.getByText("Apples are red.").waitFor({ timeout: 15_000 });
    const dialogPath = new URL(page.url()).pathname;
    const firstTurn = page.getByTestId("response-boundary").first();
    const kinds = () =>
      firstTurn
        .locator("[data-branch-kind]")
        .evaluateAll((links) => links.map((l) => (l as HTMLElement).dataset.branchKind));

    // Regenerate on the first turn (it had none: a first turn has no parent to continue).
    upstream.script({ output: [{ text: "Apples are green." }] });
    await firstTurn.getByTestId("regenerate").click();
    await page.getByText("Apples are green.").waitFor({ timeout: 15_000 });
    await expect.poll(kinds, { timeout: 15_000 }).toEqual(["original", "regenerated"]);
    expect(new URL(page.url()).pathname).toBe(dialogPath);
    expect(upstream.requests.at(-1)!.body.messages).toEqual([{ role: "user", content: "What colour are apples?" }]);

    // Editing the first message: a branch of this dialog (it started a new chat before).
    upstream.script({ output: [{ text: "Pears are green." }] });
    await page.locator(".event-human").first().getByTestId("edit-message").click();
    await page.getByLabel("Edited message").fill("What colour are pears?");
    await page.getByLabel("Edited message").press("Enter");
    await page.getByText("Pears are green.").waitFor({ timeout: 15_000 });
    await expect.poll(kinds, { timeout: 15_000 }).toEqual(["original", "regenerated", "edited"]);
    expect(new URL(page.url()).pathname).toBe(dialogPath);
    // The branch list says where they begin (it said "separate root").
    await page
      .locator("[data-testid=branch-row] .branch-facts", { hasText: "from the start · 2 events · 1 turn" })
      .first()
      .waitFor({ timeout: 15_000 });
    await shot(page, "13-first-turn-branches");
    expect(await page.locator(".dialog-item").count()).toBe(await store.prisma.dialog.count());
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe.skipIf(!hasChromium)("a message sent before the page knows the server's models", () => {
  it("is not sent as hand-written: Send waits until the server has said a model answers", async () => {
    // The page's models query held until the person has typed and pressed Enter.
    const page = await (await launchBrowser()).newPage({ viewport: { width: 1280, height: 900 } });
    const held = gate();
    let asked!: () => void;
    const modelsAsked = new Promise<void>((resolve) => (asked = resolve));
    await page.route("**/graphql", async (route) => {
      if (route.request().postData()?.includes("query RecentModels")) {
        asked();
        await held.opened;
      }
      await route.continue();
    });
    const before = await store.prisma.response.count();
    await page.goto(`${server.url}/`);
    await modelsAsked;
    const composer = page.getByTestId("composer-input");
    await composer.fill("Are you there?");
    await composer.press("Enter");
    // Refused while the models are unknown (before, a turn was opened that waited for a
    // hand-written answer, IN_PROGRESS for ever, although a model was configured).
    expect(await page.getByTestId("send").isDisabled()).toBe(true);
    expect(await composer.inputValue()).toBe("Are you there?");
    expect(await page.getByTestId("no-model-note").count()).toBe(0);
    held.open();
    await expect.poll(() => page.getByTestId("composer-model").inputValue(), { timeout: 15_000 }).toBe("stand-in-1");
    upstream.script({ output: [{ text: "Yes, here." }] }, { output: [{ text: "Greeting" }] });
    await composer.press("Enter");
    await page.getByText("Yes, here.").waitFor({ timeout: 15_000 });
    // One turn made, by the model.
    const made = await store.prisma.response.findMany({ orderBy: { createdAt: "desc" }, take: 1 });
    expect(await store.prisma.response.count()).toBe(before + 1);
    expect(made[0]).toMatchObject({ model: "stand-in-1", status: "COMPLETED" });
    await page.close();
  });
});

/** Relative luminance (0 black … 1 white) of a CSS rgb() colour. */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+/g) ?? ["255", "255", "255"]).slice(0, 3).map((n) => Number(n) / 255);
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
