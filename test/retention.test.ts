// Retention (seed 002), with a retention of one hour for this file's app, built in this process
// beside apps that keep dialogs forever: an idle dialog expires and is swept away with its
// responses and events; one that is written to stays. Chaining to an expired response is a
// NotFoundError that says so. Nothing waits for time to pass: a dialog is made to look idle by
// moving its updatedAt back, and sweeps are told what "now" is.
import { describe, expect, it } from "vitest";
import { graphql } from "../src/client/generated/index.js";
import { startSweeper } from "../src/history-writes/retention-sweeper.js";
import { sweepExpired } from "../src/services/retention.js";
import { configWith, prisma, storeWith } from "./support/database.js";
import { createResponse, rowCounts, turn } from "./support/dialogs.js";
import { importMessages } from "./support/formats.js";
import { app as appKeepingForever, executeOk, testApp } from "./support/graphql.js";
import { countStatements } from "./support/query-counter.js";

const HOUR = 60 * 60_000;
const config = configWith({ RETENTION: "1h" });
// The same database, seen with this configuration's retention.
const store = storeWith({ retentionMs: config.RETENTION ?? null });
const app = testApp({ store, config });

const exists = async (dialogId: string) => (await prisma.dialog.count({ where: { id: dialogId } })) === 1;

/** Makes a dialog look idle for `ms` without waiting (updatedAt holds UTC, without time zone). */
async function idleFor(dialogId: string, ms: number) {
  const at = new Date(Date.now() - ms).toISOString();
  await prisma.$executeRaw`UPDATE "Dialog" SET "updatedAt" = ${at}::timestamp WHERE id = ${dialogId}`;
}

const hello = { input: [{ human: { content: "Hello" } }], output: [{ ai: { content: "Hi" } }] };
const EXPIRY = graphql(`
  query RetentionExpiry($id: ID!) {
    dialog(id: $id) {
      updatedAt
      expiresAt
      head {
        expiresAt
      }
    }
  }
`);
const RENAME = graphql(`
  mutation RetentionRename($id: ID!, $title: String) {
    updateDialog(input: { id: $id, title: $title }) {
      __typename
      ... on Error {
        message
      }
    }
  }
`);
const FORK = graphql(`
  mutation RetentionFork($r: ID!) {
    forkDialog(input: { responseId: $r }) {
      __typename
      ... on Error {
        message
      }
    }
  }
`);
const CLEAR = graphql(`
  mutation RetentionClear($id: ID!) {
    clearDialog(input: { id: $id }) {
      __typename
    }
  }
`);

it("is this app's setting: an app built from another configuration in the same process keeps dialogs", async () => {
  const kept = await turn(hello, appKeepingForever);
  expect((await executeOk(EXPIRY, { id: kept.dialogId }, appKeepingForever)).dialog!.expiresAt).toBeNull();
  const expiring = await turn(hello, app);
  const { dialog } = await executeOk(EXPIRY, { id: expiring.dialogId }, app);
  expect(Date.parse(dialog!.expiresAt!) - Date.parse(dialog!.updatedAt)).toBe(HOUR);
});

describe("the retention sweeper", () => {
  it("deletes an idle dialog with everything in it, and keeps one that was written to", async () => {
    const idle = await turn(hello, app);
    const active = await turn(hello, app);
    // Both nearly expired; the one written to starts its hour again.
    await idleFor(idle.dialogId, HOUR - 60_000);
    await idleFor(active.dialogId, HOUR - 60_000);
    await turn({ dialogId: active.dialogId, input: [{ human: { content: "Still here" } }] }, app);

    // Swept two minutes later.
    const { deletedDialogIds } = await sweepExpired(store, { now: new Date(Date.now() + 120_000) });
    expect(deletedDialogIds).toContain(idle.dialogId);
    expect(deletedDialogIds).not.toContain(active.dialogId);
    expect(await exists(idle.dialogId)).toBe(false);
    expect(await prisma.response.count({ where: { dialogId: idle.dialogId } })).toBe(0);
    expect(await prisma.event.count({ where: { dialogId: idle.dialogId } })).toBe(0);
    expect(await exists(active.dialogId)).toBe(true);

    // Chaining to the swept response says it may have expired.
    const result = await createResponse(
      { previousResponseId: idle.id, input: [{ human: { content: "Hello?" } }] },
      app,
    );
    expect(result).toMatchObject({
      __typename: "NotFoundError",
      message: `Response ${idle.id} not found (it may have expired or been deleted)`,
    });
  });

  it("runs in the background on its own timer, sweeping as of its clock", async () => {
    const idle = await turn(hello, app);
    // Nothing is idle yet; the sweeper's clock is two hours ahead.
    const sweeper = startSweeper(app.services.writes, {
      intervalMs: 20,
      clock: () => new Date(Date.now() + 2 * HOUR),
    })!;
    try {
      for (let tries = 0; tries < 250 && (await exists(idle.dialogId)); tries++)
        await new Promise((r) => setTimeout(r, 20));
      expect(await exists(idle.dialogId)).toBe(false);
    } finally {
      await sweeper.stop();
    }
  });

  it("is off for a store that keeps dialogs forever", () => {
    expect(startSweeper(appKeepingForever.services.writes, { intervalMs: 20 })).toBeNull();
  });

  it("deletes in bounded batches", async () => {
    const idle = await Promise.all([1, 2, 3, 4, 5].map(() => turn(hello, app)));
    for (const { dialogId } of idle) await idleFor(dialogId, 10 * HOUR);
    // Swept as of 5 hours ago: only dialogs idle for more than 6 hours, which are these.
    const { result, statements } = await countStatements(() =>
      sweepExpired(store, { batchSize: 2, now: new Date(Date.now() - 5 * HOUR) }),
    );
    expect(result.deletedDialogIds.sort()).toEqual(idle.map((d) => d.dialogId).sort());
    expect(statements.filter((sql) => /DELETE FROM "Dialog"/.test(sql))).toHaveLength(3);
  });
});

describe("an expired dialog, before the sweeper comes", () => {
  it("refuses writes with a NotFoundError that says it expired, and stores nothing", async () => {
    const old = await turn(hello, app);
    await idleFor(old.dialogId, HOUR + 30_000);
    const before = await rowCounts();

    const chained = await createResponse(
      { previousResponseId: old.id, input: [{ human: { content: "Hi again" } }] },
      app,
    );
    expect(chained).toMatchObject({
      __typename: "NotFoundError",
      message: `Response ${old.id} not found (it has expired)`,
    });
    const viaDialog = await createResponse(
      { dialogId: old.dialogId, input: [{ human: { content: "Hi again" } }] },
      app,
    );
    expect(viaDialog).toMatchObject({ message: `Dialog ${old.dialogId} not found (it has expired)` });
    const imported = await importMessages(
      { format: "OPENAI_CHAT", previousResponseId: old.id, messages: [{ role: "user", content: "Hi again" }] },
      app,
    );
    expect(imported).toMatchObject({ __typename: "NotFoundError", code: "NOT_FOUND" });
    const renamed = await executeOk(RENAME, { id: old.dialogId, title: "Back?" }, app);
    const forked = await executeOk(FORK, { r: old.id }, app);
    expect(forked.forkDialog).toEqual({
      __typename: "NotFoundError",
      message: `Response ${old.id} not found (it has expired)`,
    });
    expect(renamed.updateDialog).toEqual({
      __typename: "NotFoundError",
      message: `Dialog ${old.dialogId} not found (it has expired)`,
    });
    expect(await rowCounts()).toEqual(before);

    // The app that keeps dialogs forever still writes to it: retention is a setting of the store it is given.
    expect((await createResponse({ dialogId: old.dialogId, input: [{ human: { content: "Hi" } }] })).__typename).toBe(
      "Response",
    );
  });
});

describe("every write extends a dialog", () => {
  it("shows the expiry on the dialog and its responses, and moves it on each write", async () => {
    const first = await turn(hello, app);
    const { dialog } = await executeOk(EXPIRY, { id: first.dialogId }, app);
    expect(Date.parse(dialog!.expiresAt!) - Date.parse(dialog!.updatedAt)).toBe(HOUR);
    expect(dialog!.head!.expiresAt).toBe(dialog!.expiresAt);

    const writes: [string, () => Promise<unknown>][] = [
      ["createResponse", () => turn({ dialogId: first.dialogId, input: [{ human: { content: "more" } }] }, app)],
      ["updateDialog", () => executeOk(RENAME, { id: first.dialogId, title: "t" }, app)],
      [
        "importMessages",
        () =>
          importMessages(
            { format: "OPENAI_CHAT", dialogId: first.dialogId, messages: [{ role: "user", content: "x" }] },
            app,
          ),
      ],
      ["clearDialog", () => executeOk(CLEAR, { id: first.dialogId }, app)],
    ];
    for (const [name, write] of writes) {
      await idleFor(first.dialogId, HOUR - 60_000);
      await write();
      const { dialog: after } = await executeOk(EXPIRY, { id: first.dialogId }, app);
      expect(Date.parse(after!.expiresAt!) - Date.now(), name).toBeGreaterThan(HOUR - 30_000);
    }
    expect((await sweepExpired(store)).deletedDialogIds).not.toContain(first.dialogId);
  });
});
