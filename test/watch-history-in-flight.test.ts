// watchHistory shows an answer as it is typed: `inFlight` grows with each delta (over graphql-ws
// and SSE), and the committed event replaces it in one state change — no state shows both, and
// none shows neither.
import { beforeAll, describe, expect, it } from "vitest";
import {
  CommitTextDocument,
  CreateResponseDocument,
  type HistoryState,
  StreamTextDocument,
} from "../src/client/index.js";
import type { RunningServer } from "../src/server/http-server.js";
import { closeAfterAll, testClient, transports } from "./support/client.js";
import { startTestServer } from "./support/live.js";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});

describe.each(transports)("watchHistory's in-flight text over %s", (transport) => {
  it("grows with every delta, then gives way to the committed event", async () => {
    const client = testClient(server.url, transport);
    const { createResponse } = await client.request(CreateResponseDocument, {
      input: { input: [{ human: { content: "Count to five" } }] },
    });
    if (createResponse.__typename !== "Response") throw new Error(JSON.stringify(createResponse));
    const responseId = createResponse.id;
    const watcher = closeAfterAll(client.watchHistory(createResponse.dialog.id));
    await watcher.until((s) => s.status === "live" && s.events.length === 1);
    const states: HistoryState[] = [];
    watcher.onChange((state) => states.push(state));

    let text = "";
    for (const delta of ["one, ", "two, ", "three, ", "four, ", "five."]) {
      const { streamText } = await client.request(StreamTextDocument, { input: { responseId, type: "AI", delta, offset: text.length } });
      expect(streamText.__typename).toBe("TextPosition");
      text += delta;
      const typed = await watcher.until((s) => s.inFlight[responseId]?.text === text);
      expect(typed.inFlight[responseId]).toEqual({ responseId, part: 1, type: "AI", text });
    }
    const { commitText } = await client.request(CommitTextDocument, { responseId });
    expect(commitText.__typename).toBe("Response");
    const done = await watcher.until((s) => s.events.length === 2);
    expect(done.events[1]).toMatchObject({ __typename: "AiEvent", seq: 2, content: text });
    expect(done.inFlight).toEqual({});

    const shown = states.map((s) => [s.events.length, s.inFlight[responseId]?.text.length ?? 0] as const);
    expect(shown.some(([events, typed]) => events === 2 && typed > 0)).toBe(false);
    expect(shown.some(([events, typed]) => events === 1 && typed === 0)).toBe(false);
  });
});
