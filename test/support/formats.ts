// Conversation-format helpers: the fixture corpus and import/export through GraphQL.
import { readdirSync, readFileSync } from "node:fs";
import { graphql } from "../../src/client/generated/index.js";
import type { ImportMessagesInput } from "../../src/client/generated/graphql.js";
import type { App } from "../../src/server/app.js";
import { app, executeOk } from "./graphql.js";

export type Format = "OPENAI_CHAT" | "OPENAI_RESPONSES" | "ANTHROPIC_MESSAGES" | "AI_SDK_UI";
export const formats: Format[] = ["OPENAI_CHAT", "OPENAI_RESPONSES", "ANTHROPIC_MESSAGES", "AI_SDK_UI"];

export interface Fixture {
  name: string;
  description: string;
  /** A list, or for ANTHROPIC_MESSAGES a `{system, messages}` body. */
  messages: unknown;
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

export const IMPORT_MESSAGES = graphql(`
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
`);

/** Imports `input` as given: tests also send shapes the schema's JSON fields accept but a format does not. */
export async function importMessages(input: ImportMessagesInput | Record<string, unknown>, on: App = app) {
  return (await executeOk(IMPORT_MESSAGES, { input: input as ImportMessagesInput }, on)).importMessages;
}

export type ImportResult = Awaited<ReturnType<typeof importMessages>>;

/** Imports and fails unless a response came back. */
export async function importOk(
  input: ImportMessagesInput | Record<string, unknown>,
): Promise<{ id: string; dialogId: string; status: string }> {
  const result = await importMessages(input);
  if (result.__typename !== "Response") throw new Error(`importMessages failed: ${JSON.stringify(result)}`);
  return { id: result.id, dialogId: result.dialog.id, status: result.status };
}

const RESPONSE_MESSAGES = graphql(`
  query FormatsResponseMessages($id: ID!, $format: MessageFormat!, $r: Boolean) {
    response(id: $id) {
      messages(format: $format, includeReasoning: $r)
    }
  }
`);

const DIALOG_MESSAGES = graphql(`
  query FormatsDialogMessages($id: ID!, $format: MessageFormat!, $r: Boolean, $responseId: ID) {
    dialog(id: $id) {
      messages(format: $format, includeReasoning: $r, responseId: $responseId)
    }
  }
`);

export async function responseMessages(responseId: string, format: Format, includeReasoning?: boolean) {
  const data = await executeOk(RESPONSE_MESSAGES, { id: responseId, format, r: includeReasoning });
  return data.response!.messages;
}

export async function dialogMessages(
  dialogId: string,
  format: Format,
  options: { responseId?: string; includeReasoning?: boolean } = {},
) {
  const data = await executeOk(DIALOG_MESSAGES, {
    id: dialogId,
    format,
    r: options.includeReasoning,
    responseId: options.responseId,
  });
  return data.dialog!.messages;
}
