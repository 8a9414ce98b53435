// Bringing old chats in: a ChatGPT data export (conversations.json, in its real shape) imported
// through importChats becomes the caller's dialogs, its `mapping` tree turned into branches — a
// regenerated answer and an edited question are siblings, the branch ChatGPT had open is the head —
// with timestamps, models, the code interpreter's call and output, and attachments as parts.
// Importing twice keeps one copy; another tenant gets its own; a bad record is named and nothing
// is stored. Open WebUI, LibreChat and OpenAI-format JSONL files come in the same way.
import { readFileSync } from "node:fs";
import path from "node:path";
import { decodeTime } from "ulid";
import { beforeAll, describe, expect, it } from "vitest";
import { graphql } from "../src/client/generated/index.js";
import { newDialogId } from "../src/ids.js";
import type { RunningServer } from "../src/server/http-server.js";
import { prisma } from "./support/database.js";
import { startTestServer } from "./support/live.js";
import { member } from "./support/narrow.js";
import { asCaller, tenantKey } from "./support/tenants.js";

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, "fixtures/chat-exports", name), "utf8");

const IMPORT = graphql(`
  mutation ImportChatsInTest($input: ImportChatsInput!) {
    importChats(input: $input) {
      __typename
      ... on ImportChatsPayload {
        format
        conversations
        imported
        skipped
        dialogs {
          id
          title
          metadata
        }
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

const TREE = graphql(`
  query ImportedDialogInTest($id: ID!) {
    dialog(id: $id) {
      head {
        id
        model
        status
      }
      branches {
        id
      }
      responses(first: 20) {
        edges {
          node {
            id
            model
            previousResponse {
              id
            }
            input {
              ...HistoryEventFields
            }
            output {
              ...HistoryEventFields
            }
          }
        }
      }
      history {
        edges {
          node {
            ...HistoryEventFields
          }
        }
      }
    }
  }
`);

let server: RunningServer;
let keyA: string;
let keyB: string;
beforeAll(async () => {
  server = await startTestServer();
  [keyA, keyB] = [(await tenantKey("alpha")).key, (await tenantKey("beta")).key];
});

const importAs = async (key: string, data: string, extra: Record<string, unknown> = {}) => {
  const { body } = await asCaller(server, key)(IMPORT, { input: { data, ...extra } });
  expect(body.errors).toBeUndefined();
  return body.data!.importChats;
};

describe("a ChatGPT export", () => {
  it("becomes the caller's dialogs, its mapping tree as branches, the open branch as head", async () => {
    const result = member(await importAs(keyA, fixture("chatgpt-conversations.json")), "ImportChatsPayload");
    expect(result).toMatchObject({ format: "CHATGPT", conversations: 2, imported: 2, skipped: 0 });
    const [lisbon, hello] = result.dialogs;
    expect(lisbon!.title).toBe("Trip to Lisbon");
    expect(lisbon!.metadata).toEqual({
      imported: {
        source: "chatgpt",
        id: "conv-lisbon",
        createdAt: "2023-11-14T22:13:20.000Z",
        updatedAt: "2023-11-14T22:15:00.000Z",
      },
    });
    expect(hello!.title).toBe("Hello");
    expect(await prisma.dialog.count({ where: { tenantId: "alpha" } })).toBe(2);

    const { body } = await asCaller(server, keyA)(TREE, { id: lisbon!.id });
    const dialog = body.data!.dialog!;
    const responses = dialog.responses.edges.map((edge) => edge.node);
    // u1→a1, u1→a1b (regenerated: a second root), a1→u2…a2 (the open branch), a1→u2e→a2e (edited).
    expect(responses).toHaveLength(4);
    const text = (r: (typeof responses)[number]) =>
      [...r.input, ...r.output].map((e) => ("content" in e ? e.content : e.__typename));
    const byText = (first: string) => responses.find((r) => text(r).includes(first))!;
    const [start, regenerated, eat, sleep] = [
      byText("Start at Belém."),
      byText("Begin in Alfama."),
      byText("Where to eat?"),
      byText("Where to sleep?"),
    ];
    expect(text(start)).toEqual(["Plan a day in Lisbon", "Start at Belém."]);
    expect(text(regenerated)).toEqual(["Plan a day in Lisbon", "Begin in Alfama."]);
    expect(start.previousResponse).toBeNull();
    expect(regenerated.previousResponse).toBeNull();
    expect(eat.previousResponse?.id).toBe(start.id);
    expect(sleep.previousResponse?.id).toBe(start.id);
    expect(sleep.model).toBe("gpt-4o-mini");
    expect(dialog.head).toEqual({ id: eat.id, model: "gpt-4o", status: "COMPLETED" });
    expect(dialog.branches.map((b) => b.id).sort()).toEqual([regenerated.id, eat.id, sleep.id].sort());

    // The head's history: the hidden system message left out, the code call and its output as a
    // tool call and result, the attachment as a file part, ChatGPT's times kept.
    const history = dialog.history.edges.map((edge) => edge.node);
    expect(history.map((e) => e.__typename)).toEqual([
      "HumanEvent",
      "AiEvent",
      "HumanEvent",
      "ToolCallEvent",
      "ToolResultEvent",
      "AiEvent",
    ]);
    const [question, , withFile, call, output, answer] = history;
    expect(question!.createdAt).toBe("2023-11-14T22:13:20.500Z");
    // The dialog and its turns keep ChatGPT's times too (they were the import's moment): a turn
    // from its first message to its last, the dialog from its first, and its id made of that time,
    // so the newest-first list puts a 2023 chat among 2023's, not above today's.
    const rows = await prisma.response.findMany({
      where: { id: { in: [start.id, regenerated.id] } },
      select: { id: true, createdAt: true, completedAt: true },
    });
    const times = Object.fromEntries(
      rows.map((r) => [r.id, [r.createdAt.toISOString(), r.completedAt?.toISOString()]]),
    );
    expect(times[start.id]).toEqual(["2023-11-14T22:13:20.500Z", "2023-11-14T22:13:25.000Z"]);
    expect(times[regenerated.id]).toEqual(["2023-11-14T22:13:20.500Z", "2023-11-14T22:13:29.000Z"]);
    const stored = await prisma.dialog.findUniqueOrThrow({ where: { id: lisbon!.id } });
    expect(stored.createdAt.toISOString()).toBe("2023-11-14T22:13:20.500Z");
    expect(decodeTime(lisbon!.id)).toBe(Date.parse("2023-11-14T22:13:20.500Z"));
    // A turn's id is made of the time it was answered: the regenerated root comes after the first.
    expect(decodeTime(start.id.replace(/^resp_/, ""))).toBe(Date.parse("2023-11-14T22:13:25.000Z"));
    expect(start.id < regenerated.id).toBe(true);
    expect(lisbon!.id < newDialogId()).toBe(true);
    // Its retention clock is the import's: an old chat is not expired by its age.
    expect(Date.now() - stored.updatedAt.getTime()).toBeLessThan(60_000);
    expect(member(withFile!, "HumanEvent").parts).toEqual([
      { __typename: "FilePart", fileId: "file-menu", filename: "menu.pdf" },
    ]);
    expect(member(call!, "ToolCallEvent")).toMatchObject({
      toolName: "python",
      callId: "call_a2code",
      args: { input: "print('pastéis')" },
    });
    expect(member(output!, "ToolResultEvent")).toMatchObject({
      toolName: "python",
      callId: "call_a2code",
      content: "pastéis",
    });
    expect(member(answer!, "AiEvent").content).toContain("| dish | price |");
  });

  it("imported again, keeps one copy; another tenant's import is its own", async () => {
    const again = member(await importAs(keyA, fixture("chatgpt-conversations.json")), "ImportChatsPayload");
    expect(again).toMatchObject({ imported: 0, skipped: 2 });
    expect(await prisma.dialog.count({ where: { tenantId: "alpha" } })).toBe(2);

    const forB = member(await importAs(keyB, fixture("chatgpt-conversations.json")), "ImportChatsPayload");
    expect(forB).toMatchObject({ imported: 2, skipped: 0 });
    expect(await prisma.dialog.count({ where: { tenantId: "beta" } })).toBe(2);
    const aIds = again.dialogs.map((d) => d.id);
    expect(forB.dialogs.map((d) => d.id).some((id) => aIds.includes(id))).toBe(false);
    // B reads its own copy, and A's is not found for B.
    const { body } = await asCaller(server, keyB)(TREE, { id: aIds[0]! });
    expect(body.data?.dialog).toBeNull();
    expect(body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("with a bad record: an error naming it, and nothing stored", async () => {
    const before = await prisma.dialog.count();
    const refused = member(await importAs(keyA, fixture("chatgpt-bad-record.json")), "ValidationError");
    expect(refused.fieldErrors).toEqual([
      {
        path: ['conversation 2 conv-lisbon ("Trip to Lisbon")', "message u2", "author", "role"],
        message: 'unknown role "robot"',
      },
    ]);
    expect(await prisma.dialog.count()).toBe(before);

    const notAnExport = member(await importAs(keyA, `{"hello": "world"}`), "ValidationError");
    expect(notAnExport.fieldErrors[0]!.message).toMatch(/is not a ChatGPT export/);
  });

  it("sent a slice at a time, names records by their place in the whole file", async () => {
    const [, second] = JSON.parse(fixture("chatgpt-bad-record.json")) as unknown[];
    const refused = member(
      await importAs(keyA, JSON.stringify([second]), { offset: 1, dryRun: true }),
      "ValidationError",
    );
    expect(refused.fieldErrors[0]!.path[0]).toBe('conversation 2 conv-lisbon ("Trip to Lisbon")');
  });
});

describe("other apps' exports", () => {
  it("an Open WebUI export: its history tree, models and times", async () => {
    const chat = {
      id: "owui-1",
      title: "Open WebUI chat",
      created_at: 1700000000,
      chat: {
        history: {
          currentId: "m3",
          messages: {
            m1: { id: "m1", parentId: null, role: "user", content: "Hi", timestamp: 1700000001 },
            m2: {
              id: "m2",
              parentId: "m1",
              role: "assistant",
              content: "Hello!",
              model: "llama3",
              timestamp: 1700000002,
            },
            m3: {
              id: "m3",
              parentId: "m1",
              role: "assistant",
              content: "Hey!",
              model: "llama3",
              timestamp: 1700000003,
            },
          },
        },
      },
    };
    const result = member(await importAs(keyA, JSON.stringify([chat])), "ImportChatsPayload");
    expect(result).toMatchObject({ format: "OPEN_WEBUI", imported: 1 });
    const { body } = await asCaller(server, keyA)(TREE, { id: result.dialogs[0]!.id });
    const dialog = body.data!.dialog!;
    expect(dialog.responses.edges).toHaveLength(2);
    expect(dialog.head?.model).toBe("llama3");
    expect(dialog.history.edges.map((e) => ("content" in e.node ? e.node.content : ""))).toEqual(["Hi", "Hey!"]);
  });

  it("a LibreChat export, nested or flat", async () => {
    const conversation = {
      conversationId: "lc-1",
      title: "LibreChat chat",
      endpoint: "openAI",
      messages: [
        {
          messageId: "a",
          parentMessageId: "00000000-0000-0000-0000-000000000000",
          isCreatedByUser: true,
          text: "Question",
          createdAt: "2024-05-01T10:00:00.000Z",
          children: [
            {
              messageId: "b",
              isCreatedByUser: false,
              text: "Answer",
              model: "gpt-4o",
              createdAt: "2024-05-01T10:00:05.000Z",
            },
          ],
        },
      ],
    };
    const result = member(await importAs(keyA, JSON.stringify(conversation)), "ImportChatsPayload");
    expect(result).toMatchObject({ format: "LIBRECHAT", imported: 1 });
    const { body } = await asCaller(server, keyA)(TREE, { id: result.dialogs[0]!.id });
    expect(body.data!.dialog!.history.edges.map((e) => e.node.__typename)).toEqual(["HumanEvent", "AiEvent"]);
    expect(body.data!.dialog!.head?.model).toBe("gpt-4o");
  });

  it("OpenAI-format JSONL: one conversation a line, tool calls kept; a bad line is named", async () => {
    const lines = [
      {
        messages: [
          { role: "user", content: "2+2?" },
          { role: "assistant", content: "4" },
        ],
      },
      {
        messages: [
          { role: "user", content: "Weather?" },
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }],
          },
          { role: "tool", tool_call_id: "c1", content: "rain" },
          { role: "assistant", content: "It rains." },
        ],
      },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n");
    const result = member(await importAs(keyA, lines), "ImportChatsPayload");
    expect(result).toMatchObject({ format: "OPENAI_JSONL", conversations: 2, imported: 2 });
    expect(result.dialogs.map((d) => d.title)).toEqual(["2+2?", "Weather?"]);
    const again = member(await importAs(keyA, lines), "ImportChatsPayload");
    expect(again).toMatchObject({ imported: 0, skipped: 2 });

    const bad = member(await importAs(keyA, `${lines}\n{"messages": 3}`), "ValidationError");
    expect(bad.fieldErrors).toEqual([{ path: ["line 3"], message: "has no `messages` array" }]);
  });
});
