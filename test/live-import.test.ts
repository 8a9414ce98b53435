// An import writes several responses at once; a subscriber watching the dialog receives every
// one of them, in seq order, exactly once (the published payload covers the last response; the
// stream reads the earlier ones as a gap).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../src/server/http-server.js";
import { writer } from "./support/dialogs.js";
import { type DeltaData, HISTORY_DELTA, httpExecutor, startTestServer, take, wsClient } from "./support/live.js";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("importMessages while a client watches", () => {
  it("delivers every imported response as deltas, in order", async () => {
    const run = httpExecutor(server);
    const started = await writer(run).createResponse({
      input: [{ human: { content: "Start" } }],
      output: [{ ai: { content: "Ok" } }],
    });
    const dialogId = started.dialog.id;
    const deltas = wsClient(server).iterate<DeltaData>({ query: HISTORY_DELTA, variables: { dialogId, afterSeq: 1 } });
    await take<DeltaData>(deltas, 1); // the replay of seq 2: the subscription is live

    const imported = await run(
      `mutation($input: ImportMessagesInput!) { importMessages(input: $input) { __typename ... on Error { message } } }`,
      {
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
      },
    );
    expect(imported.importMessages.__typename).toBe("Response");
    const received = await take<DeltaData>(deltas, 2);
    expect(received.map(({ historyDelta: d }) => [d.previousSeq, d.seq, d.append.map((e) => e.content)])).toEqual([
      [2, 4, ["One", "1"]],
      [4, 6, ["Two", "2"]],
    ]);
    await deltas.return?.();
  });
});
