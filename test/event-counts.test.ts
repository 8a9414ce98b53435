// A context's totals are sums of per-response counts that a trigger keeps; whichever path wrote
// the events (a turn, an append, an interrupt, an import, a fork), they equal a count of the
// context's events.
import { describe, expect, it } from "vitest";
import { DEVELOPMENT_TENANT } from "../src/auth/authenticator.js";
import { database, prisma, store } from "./support/database.js";
import type { HistoryEventType } from "../src/generated/prisma/enums.js";
import { countContext, readContext } from "../src/services/context.js";
import { forkDialog } from "../src/services/fork.js";
import { importMessages } from "../src/services/import-messages.js";
import { appendEvents, interruptResponse } from "../src/services/response-lifecycle.js";
import { createResponse } from "../src/services/responses.js";

async function expectTotalsToMatchEvents(responseId: string, types?: HistoryEventType[]) {
  const events = await readContext(responseId, types, database);
  const expected: Record<string, number> = {
    all: events.length,
    HUMAN: 0,
    AI: 0,
    REASONING: 0,
    TOOL_CALL: 0,
    TOOL_RESULT: 0,
    SYSTEM: 0,
  };
  for (const event of events) expected[event.type]!++;
  expect(await countContext(responseId, types, database)).toEqual(expected);
}

describe("context totals", () => {
  it("match the events of the context after every kind of write", async () => {
    const first = await createResponse(
      store,
      {
        input: [{ system: { content: "Be brief." } }, { human: { content: "Read a.txt" } }],
        output: [
          { reasoning: { content: "Need it." } },
          { toolCall: { callId: "c1", toolName: "read_file", args: { path: "a.txt" } } },
        ],
      },
      DEVELOPMENT_TENANT,
    );
    const open = await createResponse(
      store,
      { previousResponseId: first.responseId, input: [{ toolResult: { callId: "c1", content: "alpha" } }] },
      DEVELOPMENT_TENANT,
    );
    await appendEvents(store, {
      responseId: open.responseId,
      events: [{ ai: { content: "It says" } }, { reasoning: { content: "…" } }],
    });
    await interruptResponse(store, {
      responseId: open.responseId,
      behavior: "SAVE_PARTIAL",
      partialText: "It says alpha",
    });
    await expectTotalsToMatchEvents(first.responseId);
    await expectTotalsToMatchEvents(open.responseId);
    await expectTotalsToMatchEvents(open.responseId, ["AI", "TOOL_RESULT"]);

    const imported = await importMessages(store, {
      previousResponseId: open.responseId,
      format: "OPENAI_CHAT",
      messages: [
        { role: "user", content: "And b.txt?" },
        { role: "assistant", content: "Missing." },
        { role: "user", content: "Thanks" },
        { role: "assistant", content: "Bye" },
      ],
      tenantId: DEVELOPMENT_TENANT,
    });
    const importedTip = imported.responseId;
    await expectTotalsToMatchEvents(importedTip);

    const fork = await forkDialog(store, { responseId: importedTip });
    const forkTip = (await prisma.dialog.findUniqueOrThrow({ where: { id: fork.dialogId } })).headId!;
    expect(forkTip).not.toBe(importedTip);
    await expectTotalsToMatchEvents(forkTip);
    expect((await countContext(forkTip, null, database)).all).toBe(
      (await countContext(importedTip, null, database)).all,
    );
  });
});
