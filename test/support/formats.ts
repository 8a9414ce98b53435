// Conversation-format helpers: the fixture corpus and import/export through GraphQL.
import { readdirSync, readFileSync } from "node:fs";
import type { App } from "../../src/server/app.js";
import { app, executeOk } from "./graphql.js";

export type Format = "OPENAI_CHAT" | "OPENAI_RESPONSES" | "ANTHROPIC_MESSAGES" | "AI_SDK_UI";
export const formats: Format[] = ["OPENAI_CHAT", "OPENAI_RESPONSES", "ANTHROPIC_MESSAGES", "AI_SDK_UI"];

export interface Fixture {
  name: string;
  description: string;
  /** A list, or for ANTHROPIC_MESSAGES a `{system, messages}` body. */
  messages: any;
}

const fixtureDirs: Record<Format, URL> = {
  OPENAI_CHAT: new URL("../fixtures/openai-chat/", import.meta.url),
  OPENAI_RESPONSES: new URL("../fixtures/openai-responses/", import.meta.url),
  ANTHROPIC_MESSAGES: new URL("../fixtures/anthropic-messages/", import.meta.url),
  AI_SDK_UI: new URL("../fixtures/ai-sdk-ui/", import.meta.url),
};

export function loadFixtures(format: Format): Fixture[] {
  const dir = fixtureDirs[format];
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => ({ name: file.replace(/\.json$/, ""), ...JSON.parse(readFileSync(new URL(file, dir), "utf8")) }));
}

export const IMPORT_MESSAGES = /* GraphQL */ `
  mutation Import($input: ImportMessagesInput!) {
    importMessages(input: $input) {
      __typename
      ... on Response {
        id
        status
        depth
        model
        dialog {
          id
          lastSeq
        }
      }
      ... on Error {
        code
        message
      }
      ... on ValidationError {
        fieldErrors {
          path
          message
        }
      }
    }
  }
`;

export async function importMessages(input: Record<string, unknown>, on: App = app) {
  return (await executeOk(IMPORT_MESSAGES, { input }, on)).importMessages;
}

/** Imports and fails unless a response came back. */
export async function importOk(
  input: Record<string, unknown>,
): Promise<{ id: string; dialogId: string; status: string }> {
  const result = await importMessages(input);
  if (result.__typename !== "Response") throw new Error(`importMessages failed: ${JSON.stringify(result)}`);
  return { id: result.id, dialogId: result.dialog.id, status: result.status };
}

export async function responseMessages(responseId: string, format: Format, includeReasoning?: boolean) {
  const data = await executeOk(
    `query($id: ID!, $format: MessageFormat!, $r: Boolean) { response(id: $id) { messages(format: $format, includeReasoning: $r) } }`,
    { id: responseId, format, r: includeReasoning },
  );
  return data.response.messages as any;
}

export async function dialogMessages(
  dialogId: string,
  format: Format,
  options: { responseId?: string; includeReasoning?: boolean } = {},
) {
  const data = await executeOk(
    `query($id: ID!, $format: MessageFormat!, $r: Boolean, $responseId: ID) {
      dialog(id: $id) { messages(format: $format, includeReasoning: $r, responseId: $responseId) } }`,
    { id: dialogId, format, r: options.includeReasoning, responseId: options.responseId },
  );
  return data.dialog.messages as any;
}
