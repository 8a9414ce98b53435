// Sharing a dialog: a read-only link made with createShareLink opens the dialog (or one branch of
// it) at /api/shared/<token> with no API key, live over Server-Sent Events while the link lives,
// and nothing else of the tenant; revoked or expired, it opens nothing; another tenant cannot
// revoke it.
import { beforeAll, describe, expect, it } from "vitest";
import { graphql } from "../src/client/generated/index.js";
import type { RunningServer } from "../src/server/http-server.js";
import { prisma } from "./support/database.js";
import { startTestServer } from "./support/live.js";
import { member } from "./support/narrow.js";
import { asCaller, tenantKey } from "./support/tenants.js";

const WRITE = graphql(`
  mutation ShareTestWrite($input: CreateResponseInput!) {
    createResponse(input: $input) {
      __typename
      ... on Response {
        id
        dialog {
          id
        }
      }
    }
  }
`);

const SHARE = graphql(`
  mutation ShareTestCreate($input: CreateShareLinkInput!) {
    createShareLink(input: $input) {
      __typename
      ... on ShareLink {
        token
        path
        responseId
        live
      }
      ... on Error {
        code
        message
      }
    }
  }
`);

const REVOKE = graphql(`
  mutation ShareTestRevoke($token: String!) {
    revokeShareLink(token: $token) {
      __typename
      ... on ShareLink {
        live
      }
      ... on Error {
        code
        message
      }
    }
  }
`);

interface SharedBody {
  dialog: { id: string; title: string | null };
  responseId: string;
  events: { __typename: string; content: string; seq: number }[];
  detail?: string;
}

let server: RunningServer;
let keyA: string;
let keyB: string;
beforeAll(async () => {
  server = await startTestServer();
  [keyA, keyB] = [(await tenantKey("alpha")).key, (await tenantKey("beta")).key];
});

const asA = () => asCaller(server, keyA);
const shared = async (token: string) => {
  const response = await fetch(`${server.url}/api/shared/${token}`);
  return { status: response.status, body: (await response.json()) as SharedBody };
};

async function turn(content: string, answer: string, place: Record<string, string> = {}) {
  const { body } = await asA()(WRITE, {
    input: { ...place, input: [{ human: { content } }], output: [{ ai: { content: answer } }] },
  });
  return member(body.data!.createResponse, "Response");
}

async function share(input: { dialogId: string; responseId?: string; expiresAt?: string }) {
  const { body } = await asA()(SHARE, { input });
  return body.data!.createShareLink;
}

describe("a share link", () => {
  it("opens the dialog without an API key, and nothing else of the tenant", async () => {
    const first = await turn("What is the capital of Norway?", "Oslo.");
    const other = await turn("A private matter", "Kept private.");
    const link = member(await share({ dialogId: first.dialog.id }), "ShareLink");
    expect(link.path).toBe(`/shared/${link.token}`);
    expect(link.token.length).toBeGreaterThanOrEqual(43);

    const { status, body } = await shared(link.token);
    expect(status).toBe(200);
    expect(body.dialog.id).toBe(first.dialog.id);
    expect(body.events.map((e) => [e.__typename, e.content])).toEqual([
      ["HumanEvent", "What is the capital of Norway?"],
      ["AiEvent", "Oslo."],
    ]);
    // The GraphQL API still wants a key; the token opens no other dialog and no list.
    const refused = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${link.token}` },
      body: JSON.stringify({ query: `{ dialog(id: "${other.dialog.id}") { id } }` }),
    });
    expect(refused.status).toBe(401);
    expect((await fetch(`${server.url}/api/shared/${link.token}x`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/dialogs/${other.dialog.id}/history`)).status).toBe(401);
    // The viewer serves its page at the link's path.
    const page = await fetch(`${server.url}${link.path}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
  });

  it("shares one branch: the other branch's turns are not in it", async () => {
    const root = await turn("Pick a colour", "Blue.");
    const blue = await turn("Why blue?", "Calm.", { previousResponseId: root.id });
    await turn("Why not green?", "Green works too.", { previousResponseId: root.id });
    const link = member(await share({ dialogId: root.dialog.id, responseId: blue.id }), "ShareLink");
    expect(link.responseId).toBe(blue.id);
    const { body } = await shared(link.token);
    expect(body.events.map((e) => e.content)).toEqual(["Pick a colour", "Blue.", "Why blue?", "Calm."]);
    // A response of another dialog cannot be named with it.
    const elsewhere = await turn("Elsewhere", "Yes.");
    const refused = member(await share({ dialogId: root.dialog.id, responseId: elsewhere.id }), "NotFoundError");
    expect(refused.message).toBe(`Response ${elsewhere.id} not found`);
  });

  it("is live: a write to the dialog is announced on /live, and the next read has it", async () => {
    const first = await turn("Count with me", "One.");
    const link = member(await share({ dialogId: first.dialog.id }), "ShareLink");
    const events = await openLive(link.token);
    await events.next("ready");
    await turn("Go on", "Two.", { dialogId: first.dialog.id });
    await events.next("change");
    expect((await shared(link.token)).body.events.map((e) => e.content)).toEqual([
      "Count with me",
      "One.",
      "Go on",
      "Two.",
    ]);

    // Revoked: the page's next read is refused, and the live stream ends at the next write.
    expect(member((await asA()(REVOKE, { token: link.token })).body.data!.revokeShareLink, "ShareLink").live).toBe(
      false,
    );
    expect((await shared(link.token)).status).toBe(404);
    await turn("Still there?", "Three.", { dialogId: first.dialog.id });
    await events.next("gone");
    await events.ended();
  });

  it("expires, and is refused an expiry in the past", async () => {
    const first = await turn("Short-lived", "Yes.");
    const link = member(
      await share({ dialogId: first.dialog.id, expiresAt: new Date(Date.now() + 60_000).toISOString() }),
      "ShareLink",
    );
    expect((await shared(link.token)).status).toBe(200);
    // Time is not waited for: the link's expiry is moved into the past.
    await prisma.shareLink.update({ where: { token: link.token }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    const gone = await shared(link.token);
    expect(gone.status).toBe(404);
    expect(gone.body.detail).toMatch(/revoked, it expired, or it never existed/);

    const past = member(
      await share({ dialogId: first.dialog.id, expiresAt: new Date(Date.now() - 60_000).toISOString() }),
      "ValidationError",
    );
    expect(past.message).toBe("expiresAt: must be in the future");
  });

  it("another tenant can neither revoke it nor share the dialog", async () => {
    const first = await turn("Mine", "Yours.");
    const link = member(await share({ dialogId: first.dialog.id }), "ShareLink");
    const asB = asCaller(server, keyB);
    expect(member((await asB(REVOKE, { token: link.token })).body.data!.revokeShareLink, "NotFoundError").message).toBe(
      "Share link not found",
    );
    expect((await shared(link.token)).status).toBe(200);
    const refused = member(
      (await asB(SHARE, { input: { dialogId: first.dialog.id } })).body.data!.createShareLink,
      "NotFoundError",
    );
    expect(refused.message).toBe(`Dialog ${first.dialog.id} not found`);
  });
});

/** The shared live stream's events, one at a time. */
async function openLive(token: string) {
  const response = await fetch(`${server.url}/api/shared/${token}/live`);
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let done = false;
  const nextFrame = async (): Promise<string | null> => {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        return /^event: (\w+)/.exec(frame)?.[1] ?? "";
      }
      if (done) return null;
      const chunk = await reader.read();
      if (chunk.done) done = true;
      else buffer += chunk.value;
    }
  };
  return {
    async next(expected: string) {
      expect(await nextFrame()).toBe(expected);
    },
    async ended() {
      expect(await nextFrame()).toBeNull();
    },
  };
}
