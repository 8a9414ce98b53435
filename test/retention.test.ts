// Retention (seed 002), with RETENTION=2s for this file (see vitest.config.ts): an idle dialog
// expires and is swept away with its responses and events; one that is written to stays. Chaining
// to an expired response is a NotFoundError that says so.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { prisma } from "../src/db/prisma.js";
import { retentionMs, startSweeper, sweepExpired } from "../src/services/retention.js";
import { createResponse, rowCounts, turn } from "./support/dialogs.js";
import { executeOk } from "./support/graphql.js";
import { importMessages } from "./support/formats.js";
import { countStatements } from "./support/query-counter.js";
import { graphql } from "../src/client/generated/index.js";

const exists = async (dialogId: string) => (await prisma.dialog.count({ where: { id: dialogId } })) === 1;

/** Makes a dialog look idle for `ms` without waiting (updatedAt holds UTC, without time zone). */
async function idleFor(dialogId: string, ms: number) {
  const at = new Date(Date.now() - ms).toISOString();
  await prisma.$executeRaw`UPDATE "Dialog" SET "updatedAt" = ${at}::timestamp WHERE id = ${dialogId}`;
}

const hello = { input: [{ human: { content: "Hello" } }], output: [{ ai: { content: "Hi" } }] };

it("runs with a 2 s retention", () => {
  expect(retentionMs).toBe(2_000);
});

describe("the retention sweeper", () => {
  it("deletes an idle dialog with everything in it, and keeps one that was written to", async () => {
    const idle = await turn(hello);
    const active = await turn(hello);
    await sleep(1_200);
    await turn({ dialogId: active.dialogId, input: [{ human: { content: "Still here" } }] });
    await sleep(1_000);

    const { deletedDialogIds } = await sweepExpired();
    expect(deletedDialogIds).toContain(idle.dialogId);
    expect(deletedDialogIds).not.toContain(active.dialogId);
    expect(await exists(idle.dialogId)).toBe(false);
    expect(await prisma.response.count({ where: { dialogId: idle.dialogId } })).toBe(0);
    expect(await prisma.event.count({ where: { dialogId: idle.dialogId } })).toBe(0);
    expect(await exists(active.dialogId)).toBe(true);

    // Chaining to the swept response says it may have expired.
    const result = await createResponse({ previousResponseId: idle.id, input: [{ human: { content: "Hello?" } }] });
    expect(result).toMatchObject({
      __typename: "NotFoundError",
      message: `Response ${idle.id} not found (it may have expired or been deleted)`,
    });
  });

  it("runs in the background on its own timer", async () => {
    const idle = await turn(hello);
    await idleFor(idle.dialogId, 5_000);
    const sweeper = startSweeper({ intervalMs: 50 })!;
    try {
      for (let tries = 0; tries < 100 && (await exists(idle.dialogId)); tries++) await sleep(50);
      expect(await exists(idle.dialogId)).toBe(false);
    } finally {
      await sweeper.stop();
    }
  });

  it("deletes in bounded batches", async () => {
    const idle = await Promise.all([1, 2, 3, 4, 5].map(() => turn(hello)));
    for (const { dialogId } of idle) await idleFor(dialogId, 10_000);
    // Swept as of 5 s ago, so dialogs of earlier tests that expire meanwhile are not in the count.
    const { result, statements } = await countStatements(() =>
      sweepExpired({ batchSize: 2, now: new Date(Date.now() - 5_000) }),
    );
    expect(result.deletedDialogIds.sort()).toEqual(idle.map((d) => d.dialogId).sort());
    expect(statements.filter((sql) => /DELETE FROM "Dialog"/.test(sql))).toHaveLength(3);
  });
});

const UPDATE_DIALOG = graphql(`
  mutation RetentionUpdateDialog($id: ID!) {
    updateDialog(input: { id: $id, title: "Back?" }) {
      __typename
      ... on Error {
        message
      }
    }
  }
`);

const FORK_DIALOG = graphql(`
  mutation RetentionForkDialog($r: ID!) {
    forkDialog(input: { responseId: $r }) {
      __typename
      ... on Error {
        message
      }
    }
  }
`);

describe("an expired dialog, before the sweeper comes", () => {
  it("refuses writes with a NotFoundError that says it expired, and stores nothing", async () => {
    const old = await turn(hello);
    await idleFor(old.dialogId, 2_500);
    const before = await rowCounts();

    const chained = await createResponse({ previousResponseId: old.id, input: [{ human: { content: "Hi again" } }] });
    expect(chained).toMatchObject({
      __typename: "NotFoundError",
      message: `Response ${old.id} not found (it has expired)`,
    });
    const viaDialog = await createResponse({ dialogId: old.dialogId, input: [{ human: { content: "Hi again" } }] });
    expect(viaDialog).toMatchObject({ message: `Dialog ${old.dialogId} not found (it has expired)` });
    const imported = await importMessages({
      format: "OPENAI_CHAT",
      previousResponseId: old.id,
      messages: [{ role: "user", content: "Hi again" }],
    });
    expect(imported).toMatchObject({ __typename: "NotFoundError", code: "NOT_FOUND" });
    const renamed = await executeOk(UPDATE_DIALOG, { id: old.dialogId });
    const forked = await executeOk(FORK_DIALOG, { r: old.id });
    expect(forked.forkDialog).toEqual({
      __typename: "NotFoundError",
      message: `Response ${old.id} not found (it has expired)`,
    });
    expect(renamed.updateDialog).toEqual({
      __typename: "NotFoundError",
      message: `Dialog ${old.dialogId} not found (it has expired)`,
    });
    expect(await rowCounts()).toEqual(before);
  });
});

const UPDATE_DIALOG2 = graphql(`
  mutation RetentionUpdateDialog2($id: ID!) {
    updateDialog(input: { id: $id, title: "t" }) {
      __typename
    }
  }
`);

const CLEAR_DIALOG = graphql(`
  mutation RetentionClearDialog($id: ID!) {
    clearDialog(input: { id: $id }) {
      __typename
    }
  }
`);

describe("every write extends a dialog", () => {
  it("shows the expiry on the dialog and its responses, and moves it on each write", async () => {
    const EXPIRY = graphql(`
      query RetentionDialogUpdatedAt($id: ID!) {
        dialog(id: $id) {
          updatedAt
          expiresAt
          head {
            expiresAt
          }
        }
      }
    `);
    const first = await turn(hello);
    const { dialog } = await executeOk(EXPIRY, { id: first.dialogId });
    expect(Date.parse(dialog!.expiresAt!) - Date.parse(dialog!.updatedAt)).toBe(2_000);
    expect(dialog!.head!.expiresAt).toBe(dialog!.expiresAt);

    const writes: [string, () => Promise<unknown>][] = [
      ["createResponse", () => turn({ dialogId: first.dialogId, input: [{ human: { content: "more" } }] })],
      [
        "updateDialog",
        () =>
          executeOk(UPDATE_DIALOG2, {
            id: first.dialogId,
          }),
      ],
      [
        "importMessages",
        () =>
          importMessages({
            format: "OPENAI_CHAT",
            dialogId: first.dialogId,
            messages: [{ role: "user", content: "x" }],
          }),
      ],
      ["clearDialog", () => executeOk(CLEAR_DIALOG, { id: first.dialogId })],
    ];
    for (const [name, write] of writes) {
      await idleFor(first.dialogId, 1_500);
      await write();
      const { dialog: after } = await executeOk(EXPIRY, { id: first.dialogId });
      expect(Date.parse(after!.expiresAt!) - Date.now(), name).toBeGreaterThan(1_000);
    }
    expect((await sweepExpired()).deletedDialogIds).not.toContain(first.dialogId);
  });
});
