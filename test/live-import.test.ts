// An import writes several responses at once; a subscriber watching the dialog receives every
// one of them, in seq order, exactly once (the published payload covers the last response; the
// stream reads the earlier ones as a gap).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../src/server/http-server.js";
import { writer } from "./support/dialogs.js";
import {
  type DeltaData,
  HISTORY_DELTA,
  httpExecutor,
  startTestServer,
  take,
  wsClient,
  subscribe,
} from "./support/live.js";
import { graphql } from "../src/client/generated/index.js";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const IMPORT_MESSAGES = graphql(`
  mutation LiveImportImportMessages($input: ImportMessagesInput!) {
    importMessages(input: $input) {
      __typename
      ... on Error {
        message
      }
    }
  }
`);

describe("importMessages while a client watches", () => {
  it("delivers every imported response as deltas, in order", async () => {
    const run = httpExecutor(server);
    const started = await writer(run).createResponse({
      input: [{ human: { content: "Start" } }],
      output: [{ ai: { content: "Ok" } }],
    });
    const dialogId = started.dialog.id;
    const deltas = subscribe(wsClient(server), HISTORY_DELTA, { dialogId, afterSeq: 1 });
    await take<DeltaData>(deltas, 1); // the replay of seq 2: the subscription is live

    const imported = await run(IMPORT_MESSAGES, {
      input: {
        dialogId,
        format: "OPENAI_CHAT",
        messages: [
          { role: "user", content: "One" },
          { role: "assistant", content: "1" },
          { role: "user", content: "Two" },
          { role: "assistant", content: "2" },
        ],
      },
    });
    expect(imported.importMessages.__typename).toBe("Response");
    const received = await take<DeltaData>(deltas, 2);
    expect(
      received.map(({ historyDelta: d }) => [
        d.previousSeq,
        d.seq,
        d.append.map((e) => ("content" in e ? e.content : undefined)),
      ]),
    ).toEqual([
      [2, 4, ["One", "1"]],
      [4, 6, ["Two", "2"]],
    ]);
    await deltas.return?.();
  });
});
