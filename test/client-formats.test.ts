// The typed client's format operations against a real server: a conversation imported in one
// format is read back in every format, whole and fitted to a token budget.
import { beforeAll, expect, it } from "vitest";
import {
  DialogMessagesDocument,
  type DialogqlClient,
  ImportMessagesDocument,
  type MessageFormat,
  ResponseMessagesDocument,
} from "../src/client/index.js";
import { testClient } from "./support/client.js";
import { startTestServer } from "./support/live.js";

let client: DialogqlClient;
beforeAll(async () => {
  client = testClient((await startTestServer()).url, "ws");
});

const conversation = [
  { id: "u1", role: "user", parts: [{ type: "text", text: "A long question ".repeat(100) }] },
  { id: "a1", role: "assistant", parts: [{ type: "text", text: "A long answer ".repeat(100) }] },
  { id: "u2", role: "user", parts: [{ type: "text", text: "Short?" }] },
  { id: "a2", role: "assistant", parts: [{ type: "text", text: "Yes." }] },
];

it("imports UIMessages and reads them back in every format, fitted to a budget", async () => {
  const imported = (
    await client.request(ImportMessagesDocument, { input: { format: "AI_SDK_UI", messages: conversation } })
  ).importMessages;
  if (imported.__typename !== "Response") throw new Error(JSON.stringify(imported));

  const formats: MessageFormat[] = ["OPENAI_CHAT", "OPENAI_RESPONSES", "ANTHROPIC_MESSAGES", "AI_SDK_UI"];
  for (const format of formats) {
    const { response } = await client.request(ResponseMessagesDocument, {
      responseId: imported.id,
      format,
      maxTokens: 100,
    });
    expect(response?.fittedMessages).toMatchObject({ droppedEventCount: 2, droppedThroughSeq: 2 });
    expect(response!.fittedMessages.tokenCount).toBeLessThanOrEqual(100);
  }
  const { response } = await client.request(ResponseMessagesDocument, { responseId: imported.id, format: "AI_SDK_UI" });
  expect(response?.fittedMessages.messages).toEqual(conversation);

  const { dialog } = await client.request(DialogMessagesDocument, {
    dialogId: imported.dialog.id,
    format: "ANTHROPIC_MESSAGES",
    maxTokens: 100,
    tokenizer: "CL100K_BASE",
  });
  expect(dialog?.messages).toEqual({
    messages: [
      { role: "user", content: [{ type: "text", text: "Short?" }] },
      { role: "assistant", content: "Yes." },
    ],
  });
  expect(dialog!.tokenCount).toBeGreaterThan(400);
});
