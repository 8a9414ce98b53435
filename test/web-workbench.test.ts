// The viewer as a workbench, in headless Chromium against a real server holding 10,000 dialogs:
// a person finds a conversation by a word in a tool result, opens it at that event, compares two
// of its branches side by side and exports one; and the list, the branch tree, the event tools,
// the dialog actions and the keys that get them there.
import { readFile } from "node:fs/promises";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { database } from "./support/database.js";
import type { RunningServer } from "../src/server/http-server.js";
import { CHROMIUM, hasChromium, openPage as openBrowserPage, screenshot, timelineEvents } from "./support/browser.js";
import { httpExecutor, startTestServer } from "./support/live.js";
import { graphql } from "../src/client/generated/index.js";
import { member } from "./support/narrow.js";
import { type CreateResponseInput } from "../src/client/generated/graphql.js";

if (!hasChromium) console.warn(`web workbench tests skipped: ${CHROMIUM} is missing`);

const SEEDED = 10_000;
const WORD = "quokkafield";

let server: RunningServer;
let run: ReturnType<typeof httpExecutor>;
let story: { dialogId: string; shared: string; offline: string; sunny: string };

const WRITE = graphql(`
  mutation WebWorkbenchWrite($input: CreateResponseInput!) {
    createResponse(input: $input) {
      __typename
      ... on Response {
        id
        dialog {
          id
        }
      }
      ... on Error {
        message
      }
    }
  }
`);

async function write(input: CreateResponseInput) {
  const { createResponse } = await run(WRITE, { input });
  return member(createResponse, "Response");
}

// 10,000 dialogs of one turn each, made in one statement per table (seeding them through the API
// would take minutes), older than any real one (ids that sort first); every fifth is untitled, every second was answered by another model.
async function seedDialogs(count: number) {
  await database.withSession((s) =>
    s.runScript(`
      INSERT INTO "Dialog" (id, title, "createdAt", "updatedAt", "lastSeq")
        SELECT '00SEED' || lpad(d::text, 20, '0'), CASE WHEN d % 5 = 0 THEN NULL ELSE 'Seeded dialog ' || d END,
          now() - interval '1 day' - d * interval '1 second', now() - interval '1 day' - d * interval '1 second', 2
        FROM generate_series(1, ${count}) d;
      INSERT INTO "Response" (id, "dialogId", depth, model, status, "humanEvents", "aiEvents", "segmentId",
          "humanEventsInSegment", "aiEventsInSegment")
        SELECT 'resp_SEED' || lpad(d::text, 20, '0'), '00SEED' || lpad(d::text, 20, '0'), 0,
          CASE WHEN d % 2 = 0 THEN 'seed-small' ELSE 'seed-large' END, 'COMPLETED', 1, 1,
          'resp_SEED' || lpad(d::text, 20, '0'), 1, 1
        FROM generate_series(1, ${count}) d;
      INSERT INTO "Event" (id, "dialogId", "responseId", "segmentId", depth, seq, phase, type, content)
        SELECT 'evt_SEED' || lpad(d::text, 20, '0') || k, '00SEED' || lpad(d::text, 20, '0'), 'resp_SEED' || lpad(d::text, 20, '0'),
          'resp_SEED' || lpad(d::text, 20, '0'), 0, k,
          (CASE k WHEN 1 THEN 'INPUT' ELSE 'OUTPUT' END)::"EventPhase", (CASE k WHEN 1 THEN 'HUMAN' ELSE 'AI' END)::"HistoryEventType",
          CASE k WHEN 1 THEN 'Seeded question number ' || d ELSE 'Seeded answer ' || d END
        FROM generate_series(1, ${count}) d, generate_series(1, 2) k;
      UPDATE "Dialog" SET "headId" = 'resp_SEED' || substr(id, 7), "headDepth" = 0 WHERE id LIKE '00SEED%';
    `),
  );
}

const UPDATE_DIALOG = graphql(`
  mutation WebWorkbenchUpdateDialog($id: ID!) {
    updateDialog(input: { id: $id, title: "Bergen forecast", metadata: { team: "weather" } }) {
      __typename
    }
  }
`);

beforeAll(async () => {
  if (!hasChromium) return;
  server = await startTestServer();
  run = httpExecutor(server);
  await seedDialogs(SEEDED);

  // The story: a forecast question, then two branches — one where the tool failed.
  const root = await write({
    model: "gpt-4o",
    input: [{ human: { content: "Why is the forecast for Bergen missing?" } }],
    output: [{ ai: { content: "Let me check the weather tool." } }],
    usage: { inputTokens: 9, outputTokens: 7, totalTokens: 16 },
  });
  const offline = await write({
    previousResponseId: root.id,
    model: "gpt-4o",
    input: [{ human: { content: "Query the Bergen station directly" } }],
    output: [
      { reasoning: { content: "Maybe functools.lru_cache kept a stale `station` handle.", modelName: "gpt-4o" } },
      { toolCall: { callId: "call_1", toolName: "weather_station", args: { city: "Bergen" } } },
      {
        toolResult: {
          callId: "call_1",
          toolName: "weather_station",
          content: `Error: station ${WORD} is offline`,
          isError: true,
        },
      },
      { ai: { content: "The station is offline, so there is no forecast." } },
    ],
    usage: { inputTokens: 40, outputTokens: 25, totalTokens: 65 },
  });
  const sunny = await write({
    previousResponseId: root.id,
    model: "gpt-4o-mini",
    input: [{ human: { content: "Use the national forecast instead" } }],
    output: [
      { toolCall: { callId: "call_2", toolName: "national_forecast", args: { city: "Bergen" } } },
      { toolResult: { callId: "call_2", toolName: "national_forecast", content: "Sunny, 12°C" } },
      { ai: { content: "Bergen will be sunny, 12°C." } },
    ],
    usage: { inputTokens: 30, outputTokens: 12, totalTokens: 42 },
  });
  await run(UPDATE_DIALOG, {
    id: root.dialog.id,
  });
  story = { dialogId: root.dialog.id, shared: root.id, offline: offline.id, sunny: sunny.id };
}, 120_000);

const url = (path = "/") => `${server.url}${path}`;

// Each test's page is closed after it: an open viewer keeps polling the list, and pages left open
// would slow every later test on a one-connection embedded database.
const opened: Awaited<ReturnType<typeof openBrowserPage>>["page"][] = [];
async function openPage(address: string) {
  const result = await openBrowserPage(address);
  opened.push(result.page);
  return result;
}
afterEach(async () => {
  for (const page of opened.splice(0)) await page.close();
});

const DIALOG_TITLE = graphql(`
  query WebWorkbenchDialogTitle($id: ID!) {
    dialog(id: $id) {
      title
    }
  }
`);

const DIALOG_FORKED_FROM = graphql(`
  query WebWorkbenchDialogForkedFrom($id: ID!) {
    dialog(id: $id) {
      forkedFrom {
        id
      }
    }
  }
`);

describe.skipIf(!hasChromium)("the viewer as a workbench", () => {
  it("finds a conversation among 10,000 by a word in a tool result, opens it at that event, compares two branches and exports one", async () => {
    const { page, errors } = await openPage(url());
    const count = page.locator("[data-testid=dialog-count]");
    await count.filter({ hasText: "of 10,000+ dialogs" }).waitFor({ timeout: 20_000 });
    // 10,001 dialogs: the server counts up to 10,000 (docs/api.md).
    expect(await count.textContent()).toBe("50 of 10,000+ dialogs");
    await screenshot(page, "workbench-1-list-of-10001");

    // Find: a word that occurs only in one tool result.
    await page.locator("[data-testid=search-input]").fill(WORD);
    const hit = page.locator("[data-testid=search-hit]");
    await hit.first().waitFor({ timeout: 10_000 });
    expect(await hit.count()).toBe(1);
    expect(await page.locator("[data-testid=search-summary]").textContent()).toBe("1 matching events");
    expect(await hit.locator("mark").textContent()).toBe(WORD);
    expect(await hit.locator(".search-hit-title").textContent()).toBe("Bergen forecast");
    expect(await hit.locator(".tag").textContent()).toBe("tool result · weather_station");
    await screenshot(page, "workbench-2-search-hit");

    // Open it at that event: the branch holding it, scrolled to and marked.
    await hit.locator("a").click();
    const target = page.locator('[data-testid=event][data-seq="6"]');
    await target.waitFor({ timeout: 10_000 });
    expect(new URL(page.url()).search).toBe(`?response=${story.offline}&event=6`);
    await page.locator(".event-target").waitFor({ timeout: 5_000 });
    expect(await target.getAttribute("class")).toContain("event-target");
    expect(await target.getAttribute("data-event-type")).toBe("TOOL_RESULT");
    expect(await target.locator(".event-body").textContent()).toBe(`Error: station ${WORD} is offline`);
    expect(await target.isVisible()).toBe(true);
    const box = (await target.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(900);
    await screenshot(page, "workbench-3-opened-at-event");

    // The branch tree: both branches by their first words, where they fork and their lengths.
    const rows = page.locator("[data-testid=branch-row]");
    await rows.nth(1).locator(".branch-facts").filter({ hasText: "after the fork" }).waitFor({ timeout: 10_000 });
    const offlineRow = page.locator(`[data-testid=branch-row][data-branch-id="${story.offline}"]`);
    const sunnyRow = page.locator(`[data-testid=branch-row][data-branch-id="${story.sunny}"]`);
    await offlineRow.locator(".branch-facts").filter({ hasText: "after the fork" }).waitFor({ timeout: 10_000 });
    expect(await offlineRow.locator(".branch-words").textContent()).toBe("Query the Bergen station directly");
    expect(await offlineRow.locator(".branch-facts").textContent()).toBe(
      "forks after turn 1 · 5 events after the fork · 2 turns · gpt-4o",
    );
    expect(await sunnyRow.locator(".branch-words").textContent()).toBe("Use the national forecast instead");
    expect(await sunnyRow.locator(".branch-facts").textContent()).toBe(
      "forks after turn 1 · 4 events after the fork · 2 turns · gpt-4o-mini",
    );
    expect(await offlineRow.getAttribute("class")).toContain("current");

    // Compare the two branches side by side.
    await page.locator("[data-testid=compare-branches]").click();
    const sides = page.locator("[data-testid=compare-side]");
    await sides.nth(1).waitFor({ timeout: 10_000 });
    expect(await page.locator("[data-testid=compare-shared]").textContent()).toContain("2 shared events up to turn 1");
    const [left, right] = [sides.nth(0), sides.nth(1)];
    expect(await left.locator("h2").textContent()).toBe("A: Query the Bergen station directly");
    expect(await right.locator("h2").textContent()).toBe("B: Use the national forecast instead");
    expect(await left.locator(".usage").textContent()).toBe("40 in · 25 out · 0 reasoning · 65 total tokens");
    expect(await right.locator(".usage").textContent()).toBe("30 in · 12 out · 0 reasoning · 42 total tokens");
    expect(await left.locator("[data-testid=event]").count()).toBe(5);
    expect(await right.locator("[data-testid=event]").count()).toBe(4);
    expect(await left.locator('[data-event-type="TOOL_RESULT"] .event-body').textContent()).toContain(WORD);
    expect(await right.locator('[data-event-type="TOOL_RESULT"] .event-body').textContent()).toBe("Sunny, 12°C");
    const leftBox = (await left.boundingBox())!;
    const rightBox = (await right.boundingBox())!;
    expect(rightBox.x).toBeGreaterThan(leftBox.x + leftBox.width - 1);
    expect(Math.abs(rightBox.y - leftBox.y)).toBeLessThan(2);
    await screenshot(page, "workbench-4-branches-compared");

    // Export the failing branch as OpenAI chat messages.
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      left.locator('[data-testid=export-menu] button[data-format="OPENAI_CHAT"]').click(),
    ]);
    expect(file.suggestedFilename()).toBe(`${story.offline}.openai-chat.json`);
    const messages = JSON.parse(await readFile((await file.path())!, "utf8"));
    expect(messages.map((m: { role: string }) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(messages[3].tool_calls[0].function.name).toBe("weather_station");
    expect(messages[4]).toMatchObject({ tool_call_id: "call_1", content: `Error: station ${WORD} is offline` });
    expect(errors).toEqual([]);
  }, 60_000);

  it("loads the list a page at a time as it is scrolled, filters it by model, status and date, and previews untitled dialogs", async () => {
    const { page, errors } = await openPage(url());
    const count = page.locator("[data-testid=dialog-count]");
    await count.filter({ hasText: "50 of 10,000+" }).waitFor({ timeout: 20_000 });
    await page.locator(".load-more").scrollIntoViewIfNeeded();
    await count.filter({ hasText: "100 of 10,000+" }).waitFor({ timeout: 10_000 });

    // Untitled dialogs read as the start of their first message.
    const untitled = page.locator(`[data-dialog-id="00SEED${"9960".padStart(20, "0")}"] .dialog-title`);
    await untitled.waitFor({ timeout: 10_000 });
    expect(await untitled.textContent()).toBe("Seeded question number 9960");
    expect(await untitled.getAttribute("class")).toContain("untitled");

    await page.locator("[data-testid=filter-model]").fill("gpt-4o-mini");
    await count.filter({ hasText: "1 of 1 dialogs" }).waitFor({ timeout: 10_000 });
    expect(await page.locator("[data-testid=dialog-list] .dialog-title").allTextContents()).toEqual([
      "Bergen forecast",
    ]);
    await page.locator("[data-testid=filter-model]").fill("seed-small");
    await count.filter({ hasText: "of 5,000 dialogs" }).waitFor({ timeout: 10_000 });
    await page.locator("[data-testid=filter-model]").fill("");
    await page.locator("[data-testid=filter-status]").selectOption("FAILED");
    await count.filter({ hasText: "0 of 0 dialogs" }).waitFor({ timeout: 10_000 });
    await page.locator("[data-testid=filter-status]").selectOption("");
    // Created today: only the story (the seeded ones are a day old).
    const today = new Date();
    const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${String(today.getDate()).padStart(2, "0")}`;
    await page.locator("[data-testid=filter-from]").fill(day);
    await count.filter({ hasText: "1 of 1 dialogs" }).waitFor({ timeout: 10_000 });
    await screenshot(page, "workbench-5-filtered-list");
    expect(errors).toEqual([]);
  }, 60_000);

  it("counts the same events in the list and in the dialog, and shows metadata and usage", async () => {
    const { page, errors } = await openPage(url(`/dialogs/${story.dialogId}`));
    await page.getByText("Bergen will be sunny, 12°C.").waitFor({ timeout: 10_000 });
    const item = page.locator(`[data-dialog-id="${story.dialogId}"] [data-testid=dialog-event-count]`);
    await item.waitFor({ timeout: 20_000 });
    expect(await item.textContent()).toBe("6 events");
    expect(await page.locator("[data-testid=event-count]").textContent()).toBe("6 events");
    await page.locator("[data-testid=dialog-metadata] summary").click();
    expect(JSON.parse((await page.locator("[data-testid=dialog-metadata] pre").textContent())!)).toEqual({
      team: "weather",
    });
    expect(await page.locator(`[data-response-id="${story.sunny}"] .usage`).textContent()).toBe(
      "30 in · 12 out · 42 total tokens",
    );
    expect(errors).toEqual([]);
  });

  it("copies an event's text, shows its raw JSON, and keeps Markdown-looking words in the reasoning summary", async () => {
    const { page, errors } = await openPage(url(`/dialogs/${story.dialogId}?response=${story.offline}`));
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    const call = page.locator('[data-event-type="TOOL_CALL"]');
    await call.waitFor({ timeout: 10_000 });
    await call.locator("[data-testid=copy-event]").click();
    await call.locator("[data-testid=copy-event]").filter({ hasText: "copied" }).waitFor({ timeout: 5_000 });
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual({ city: "Bergen" });

    await call.locator("[data-testid=raw-event]").click();
    const json = JSON.parse((await call.locator("[data-testid=event-json]").textContent())!);
    expect(json).toMatchObject({
      __typename: "ToolCallEvent",
      seq: 5,
      callId: "call_1",
      toolName: "weather_station",
      args: { city: "Bergen" },
    });

    const summary = page.locator('[data-event-type="REASONING"] summary');
    expect(await summary.textContent()).toBe("Maybe functools.lru_cache kept a stale station handle.");
    await screenshot(page, "workbench-6-event-tools");
    expect(errors).toEqual([]);
  });

  it("renames, forks and deletes a dialog from the page", async () => {
    const started = await write({
      input: [{ human: { content: "A dialog to rename" } }],
      output: [{ ai: { content: "Sure." } }],
    });
    const { page, errors } = await openPage(url(`/dialogs/${started.dialog.id}`));
    await page.getByText("Sure.").waitFor({ timeout: 10_000 });
    // Untitled, the header reads as the first message, as the list does.
    await page
      .locator(".dialog-header h1.untitled")
      .filter({ hasText: "A dialog to rename" })
      .waitFor({ timeout: 10_000 });
    await page.locator("[data-testid=rename]").click();
    await page.locator("[data-testid=rename-input]").fill("Renamed in the viewer");
    await page.getByRole("button", { name: "Save" }).click();
    await page.locator(".dialog-header h1").filter({ hasText: "Renamed in the viewer" }).waitFor({ timeout: 10_000 });
    const { dialog } = await run(DIALOG_TITLE, { id: started.dialog.id });
    expect(dialog!.title).toBe("Renamed in the viewer");

    await page.locator("[data-testid=fork]").click();
    await page.waitForURL((u) => u.pathname.startsWith("/dialogs/") && !u.pathname.endsWith(started.dialog.id), {
      timeout: 10_000,
    });
    const forkId = decodeURIComponent(new URL(page.url()).pathname.split("/")[2]!);
    await page.getByText("Sure.").waitFor({ timeout: 10_000 });
    expect((await timelineEvents(page)).map((e) => e.text)).toEqual(["A dialog to rename", "Sure."]);
    const fork = await run(DIALOG_FORKED_FROM, { id: forkId });
    expect(fork.dialog!.forkedFrom!.id).toBe(started.id);

    page.once("dialog", (prompt) => void prompt.accept());
    await page.locator("[data-testid=delete]").click();
    await page.waitForURL((u) => u.pathname === "/", { timeout: 10_000 });
    const gone = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: `query($id: ID!) { dialog(id: $id) { id } }`, variables: { id: forkId } }),
    }).then((r) => r.json());
    expect(gone.errors[0].extensions.code).toBe("NOT_FOUND");
    expect(await page.locator(`[data-dialog-id="${forkId}"]`).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("is driven from the keyboard: / searches, Enter opens the best hit, j and k walk the list", async () => {
    const { page, errors } = await openPage(url());
    await page.locator("[data-testid=dialog-list] .dialog-item").first().waitFor({ timeout: 20_000 });
    await page.keyboard.press("/");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("search-input");
    await page.keyboard.type("national_forecast");
    await page.locator("[data-testid=search-hit]").first().waitFor({ timeout: 10_000 });
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.pathname === `/dialogs/${story.dialogId}`, { timeout: 10_000 });
    await page
      .locator(".event-target")
      .waitFor({ timeout: 30_000 })
      .catch(async (error) => {
        await screenshot(page, "workbench-7-keyboard-failed");
        throw new Error(`${error}; at ${page.url()}`);
      });

    await page.locator("body").click({ position: { x: 900, y: 5 } });
    const ids = await page
      .locator("[data-testid=dialog-list] .dialog-item")
      .evaluateAll((items) => items.slice(0, 3).map((item) => (item as HTMLElement).dataset.dialogId));
    const at = ids.indexOf(story.dialogId);
    await page.keyboard.press("j");
    await page.waitForURL((u) => u.pathname === `/dialogs/${ids[at + 1]}`, { timeout: 10_000 });
    await page.keyboard.press("k");
    await page.waitForURL((u) => u.pathname === `/dialogs/${story.dialogId}`, { timeout: 10_000 });
    await screenshot(page, "workbench-7-keyboard");
    expect(errors).toEqual([]);
  }, 90_000);

  it("shows a hit as plain text with the match marked, under the start of an untitled dialog's first message", async () => {
    const word = "quokkaplain";
    const { dialog } = await write({
      model: "gpt-4o",
      input: [{ human: { content: `How do I **cache** a \`${word}\` lookup?` } }],
      output: [
        {
          ai: {
            content: `Wrap it:\n\n\`\`\`python\n@lru_cache\ndef ${word}(city): ...\n\`\`\`\n\n| name | see |\n|---|---|\n| **${word}** | [docs](https://example.com) |`,
          },
        },
      ],
    });
    const { page, errors } = await openPage(url());
    await page.locator("[data-testid=search-input]").fill(word);
    const hits = page.locator("[data-testid=search-hit]");
    await hits.nth(1).waitFor({ timeout: 10_000 });
    expect(await hits.count()).toBe(2);
    for (const hit of await hits.all()) {
      const title = hit.locator(".search-hit-title");
      expect(await title.textContent()).toBe(`How do I cache a ${word} lookup?`);
      expect(await title.getAttribute("class")).toContain("untitled");
      expect(await hit.locator("mark").allTextContents()).toEqual(expect.arrayContaining([word]));
      for (const mark of await hit.locator("mark").allTextContents()) expect(mark).toBe(word);
      expect(await hit.locator(".search-snippet").textContent()).not.toMatch(/\*|`|\||\]\(|https:/);
    }
    const human = hits.filter({ has: page.locator(".tag", { hasText: "human" }) });
    expect(await human.locator(".search-snippet").textContent()).toContain(`cache a ${word} lookup`);
    const answer = hits.filter({ has: page.locator(".tag", { hasText: "AI" }) });
    expect(await answer.locator(".search-snippet").textContent()).toContain(`@lru_cache def ${word}(city)`);
    // The list names the untitled dialog the same way.
    const listed = page.locator(`[data-testid=dialog-list] [data-dialog-id="${dialog.id}"] .dialog-title`);
    expect(await listed.textContent()).toBe(`How do I cache a ${word} lookup?`);
    await screenshot(page, "workbench-8-plain-search-hits");
    expect(errors).toEqual([]);
  });
});
