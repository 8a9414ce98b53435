// Context addressing as users meet it (docs/architecture.md, "Context addressing"): responses are
// grouped into linear segments, and every read of a context — its pages, totals, lastEvent,
// eventCount, the REST history — reads (segment, depth) ranges instead of walking the chain. Each
// story writes through the API, then checks every read against the context walked by hand
// (response by response, through previousResponseId) and the segments against their invariants.
import type { ResultOf } from "@graphql-typed-document-node/core";
import { describe, expect, it } from "vitest";
import { graphql } from "../src/client/generated/index.js";
import { withField } from "./support/narrow.js";
import { database, prisma, store } from "./support/database.js";
import { countColumns, segmentCountColumns } from "../src/vocabulary/event-counts.js";
import { contextPageStatement } from "../src/services/context.js";
import { sweepExpired } from "../src/services/retention.js";
import { deleteResponse } from "../src/services/delete-response.js";
import type { HistoryEventType } from "../src/generated/prisma/enums.js";
import { turn } from "./support/dialogs.js";
import { importOk } from "./support/formats.js";
import { executeOk, restGet } from "./support/graphql.js";
import { countStatements, withoutKeyChecks } from "./support/query-counter.js";

/** One turn: a question, an answer, and every third turn a tool call and its result. */
const step = (label: string, n: number) => ({
  model: "m",
  input: [{ human: { content: `${label} question ${n}` } }],
  output: [
    { ai: { content: `${label} answer ${n}` } },
    ...(n % 3 === 0
      ? [
          { toolCall: { callId: `${label}-${n}`, toolName: "search", args: { n } } },
          { toolResult: { callId: `${label}-${n}`, content: `found ${n}` } },
        ]
      : []),
  ],
});

/** `count` turns chained from `from` (a new dialog when null); returns their ids, oldest first. */
async function chain(label: string, count: number, from: string | null) {
  const ids: string[] = [];
  let previous = from;
  for (let n = 0; n < count; n++) {
    const written = await turn({ ...step(label, n), ...(previous ? { previousResponseId: previous } : {}) });
    ids.push(written.id);
    previous = written.id;
  }
  return ids;
}

/** The oracle: the context of `tip` walked response by response, events ordered by (depth, seq). */
async function walkedContext(tip: string) {
  const { dialogId } = await prisma.response.findUniqueOrThrow({ where: { id: tip } });
  const responses = await prisma.response.findMany({ where: { dialogId } });
  const byId = new Map(responses.map((r) => [r.id, r]));
  const onChain: string[] = [];
  for (let at = byId.get(tip); at; at = at.previousResponseId ? byId.get(at.previousResponseId) : undefined) {
    onChain.push(at.id);
  }
  const events = await prisma.event.findMany({ where: { responseId: { in: onChain } } });
  const depthOf = (id: string) => byId.get(id)!.depth;
  return events.sort((a, b) => depthOf(a.responseId) - depthOf(b.responseId) || a.seq - b.seq);
}

const READS = graphql(`
  query ContextAddressingReads($dialog: ID!, $tip: ID!, $first: Int, $after: String, $last: Int, $before: String) {
    dialog(id: $dialog) {
      eventCount(responseId: $tip)
      toolCalls: eventCount(responseId: $tip, types: [TOOL_CALL])
      lastEvent(responseId: $tip) {
        ... on BaseHistoryEvent {
          id
        }
      }
      lastHuman: lastEvent(responseId: $tip, types: [HUMAN]) {
        ... on BaseHistoryEvent {
          id
        }
      }
      history(responseId: $tip, first: $first, after: $after, last: $last, before: $before) {
        totalMessages
        totalToolCalls
        pageInfo {
          hasNextPage
          hasPreviousPage
          startCursor
          endCursor
        }
        edges {
          node {
            ... on BaseHistoryEvent {
              id
            }
          }
        }
      }
    }
  }
`);

type ReadsPage = NonNullable<ResultOf<typeof READS>["dialog"]>["history"];

const COMMON_ANCESTOR = graphql(`
  query ContextAddressingCommonAncestor($a: ID!, $b: ID!) {
    response(id: $a) {
      commonAncestor(with: $b) {
        id
      }
    }
  }
`);

const APPEND_EVENTS = graphql(`
  mutation ContextAddressingAppend($input: AppendEventsInput!) {
    appendEvents(input: $input) {
      __typename
    }
  }
`);

const FORK_DIALOG = graphql(`
  mutation ContextAddressingFork($input: ForkDialogInput!) {
    forkDialog(input: $input) {
      ... on Dialog {
        id
        head {
          id
        }
      }
    }
  }
`);

const PAGE = graphql(`
  query ContextAddressingPage($id: ID!) {
    response(id: $id) {
      context(first: 20) {
        totalMessages
        edges {
          cursor
        }
      }
    }
  }
`);

/** Every read of the context of `tip` agrees with the walked context. */
async function expectReadsMatchWalk(tip: string) {
  const walked = await walkedContext(tip);
  const ids = walked.map((e) => e.id);
  const ofType = (type: HistoryEventType) => walked.filter((e) => e.type === type);
  const { dialogId } = await prisma.response.findUniqueOrThrow({ where: { id: tip } });
  const read = (args: Record<string, unknown>) =>
    executeOk(READS, { dialog: dialogId, tip, ...args }).then((data) => data.dialog!);

  const whole = await read({ first: 10_000 });
  expect(whole.history.edges.map((e) => e.node.id)).toEqual(ids);
  expect(whole.history.totalMessages).toBe(ids.length);
  expect(whole.history.totalToolCalls).toBe(ofType("TOOL_CALL").length);
  expect(whole.eventCount).toBe(ids.length);
  expect(whole.toolCalls).toBe(ofType("TOOL_CALL").length);
  expect(whole.lastEvent!.id).toBe(ids.at(-1));
  expect(whole.lastHuman!.id).toBe(ofType("HUMAN").at(-1)!.id);

  // Forwards in pages of 7 and backwards in pages of 5 (or in about 20 pages, for long contexts):
  // cursors carry across segment boundaries.
  const [first, last] = [Math.max(7, Math.ceil(ids.length / 20)), Math.max(5, Math.ceil(ids.length / 20) - 1)];
  const forwards: string[] = [];
  for (let after: string | null = null; ;) {
    const page: ReadsPage = (await read({ first, after })).history;
    forwards.push(...page.edges.map((e) => e.node.id));
    if (!page.pageInfo.hasNextPage) break;
    after = page.pageInfo.endCursor ?? null;
  }
  expect(forwards).toEqual(ids);
  const backwards: string[] = [];
  for (let before: string | null = null; ;) {
    const page: ReadsPage = (await read({ last, before })).history;
    backwards.unshift(...page.edges.map((e) => e.node.id));
    if (!page.pageInfo.hasPreviousPage) break;
    before = page.pageInfo.startCursor ?? null;
  }
  expect(backwards).toEqual(ids);

  // Seed 001's REST history shows four of the types, in the same order.
  const rest = await restGet<{ messages: { type: string; content?: string | null }[] }>(
    `/api/dialogs/${dialogId}/history?response_id=${tip}`,
  );
  const shown = walked.filter((e) => ["HUMAN", "AI", "REASONING", "TOOL_CALL"].includes(e.type));
  expect(rest.body.messages.map((m) => m.type)).toEqual(shown.map((e) => e.type.toLowerCase()));
  expect(rest.body.messages.map((m) => m.content ?? null)).toEqual(
    shown.map((e) => (e.type === "TOOL_CALL" ? null : e.content)),
  );
}

/**
 * The segments of `dialogId` keep their invariants: each is a run of responses at consecutive
 * depths, each continuing the one before it, named after its first; its counts run along it; each
 * event carries its response's (segmentId, depth). Returns the segments, largest first.
 */
async function expectSegmentsHold(dialogId: string) {
  const responses = await prisma.response.findMany({ where: { dialogId }, orderBy: { depth: "asc" } });
  const events = await prisma.event.findMany({ where: { dialogId } });
  const bySegment = new Map<string, typeof responses>();
  for (const r of responses) bySegment.set(r.segmentId, [...(bySegment.get(r.segmentId) ?? []), r]);
  for (const [segmentId, members] of bySegment) {
    expect(members[0]!.id).toBe(segmentId);
    const running = Object.fromEntries(Object.values(segmentCountColumns).map((c) => [c, 0])) as Record<string, number>;
    members.forEach((r, i) => {
      if (i > 0) {
        expect(r.previousResponseId).toBe(members[i - 1]!.id);
        expect(r.depth).toBe(members[i - 1]!.depth + 1);
      }
      for (const [type, own] of Object.entries(countColumns)) {
        const inSegment = segmentCountColumns[type as HistoryEventType];
        const mine = events.filter((e) => e.responseId === r.id && e.type === type).length;
        const counts = r as unknown as Record<string, number>;
        expect(counts[own]).toBe(mine);
        running[inSegment]! += mine;
        expect(counts[inSegment]).toBe(running[inSegment]);
      }
    });
  }
  const byId = new Map(responses.map((r) => [r.id, r]));
  for (const e of events) {
    expect({ segmentId: e.segmentId, depth: e.depth }).toEqual({
      segmentId: byId.get(e.responseId)!.segmentId,
      depth: byId.get(e.responseId)!.depth,
    });
  }
  return [...bySegment.values()].sort((a, b) => b.length - a.length);
}

describe("context addressing", () => {
  let main: string[];
  let branch: string[];
  let dialogId: string;
  let tips: Record<"main" | "branch" | "twig", string>;

  it("a branch from the middle of a long chain reads the shared part then its own; the chain stays one segment", async () => {
    main = await chain("main", 40, null);
    dialogId = (await prisma.response.findUniqueOrThrow({ where: { id: main[0]! } })).dialogId;
    branch = await chain("branch", 6, main[14]!);
    for (const tip of [main.at(-1)!, main[14]!, main[20]!, branch.at(-1)!, branch[2]!]) await expectReadsMatchWalk(tip);
    const segments = await expectSegmentsHold(dialogId);
    expect(segments.map((s) => s.length)).toEqual([40, 6]);
    expect(segments[1]![0]!.id).toBe(branch[0]);
  });

  it("a branch of a branch, and writes alternating between branches, keep one segment per branch", async () => {
    const twig = await chain("twig", 3, branch[3]!);
    tips = { main: main.at(-1)!, branch: branch.at(-1)!, twig: twig.at(-1)! };
    // Three agents taking turns, each continuing its own branch (never the dialog's head).
    for (let round = 0; round < 4; round++) {
      for (const name of ["main", "branch", "twig"] as const) {
        tips[name] = (await turn({ ...step(`${name}-more`, round), previousResponseId: tips[name] })).id;
      }
    }
    for (const tip of Object.values(tips)) await expectReadsMatchWalk(tip);
    const segments = await expectSegmentsHold(dialogId);
    expect(segments.map((s) => s.length)).toEqual([44, 10, 7]);
    // Where two branches part is found from their segments too.
    const partAt = async (a: string, b: string) =>
      (await executeOk(COMMON_ANCESTOR, { a, b })).response!.commonAncestor!.id;
    expect(await partAt(tips.twig, tips.main)).toBe(main[14]);
    expect(await partAt(tips.branch, tips.twig)).toBe(branch[3]);
    expect(await partAt(main[10]!, tips.twig)).toBe(main[10]);
  });

  it("writers branching from one response at the same moment: exactly one continues its segment", async () => {
    const tip = (await chain("race", 3, null)).at(-1)!;
    const children = await Promise.all(
      Array.from({ length: 8 }, (_, i) => turn({ ...step(`racer${i}`, 1), previousResponseId: tip })),
    );
    const raceDialog = children[0]!.dialogId;
    const segments = await expectSegmentsHold(raceDialog);
    // The chain and the one child that continued it, then seven children with segments of their own.
    expect(segments.map((s) => s.length)).toEqual([4, 1, 1, 1, 1, 1, 1, 1]);
    for (const child of children) await expectReadsMatchWalk(child.id);
  });

  it("an in-progress response continued before it finished: what it appends later is in every context after it", async () => {
    const opened = await turn({ model: "m", input: [{ human: { content: "start a long job" } }] });
    expect(opened.status).toBe("IN_PROGRESS");
    const next = await chain("after", 2, opened.id);
    await executeOk(APPEND_EVENTS, {
      input: {
        responseId: opened.id,
        events: [
          { ai: { content: "step one done" } },
          { toolCall: { callId: "late", toolName: "job", args: {} } },
          { toolResult: { callId: "late", content: "ok" } },
        ],
      },
    });
    await expectSegmentsHold(opened.dialogId);
    for (const tip of [opened.id, ...next]) await expectReadsMatchWalk(tip);
    const context = await walkedContext(next.at(-1)!);
    // The appended events sit with their response, before the turns that continued it.
    expect(context.slice(0, 4).map((e) => e.content)).toEqual(["start a long job", "step one done", null, "ok"]);
  });

  it("a fork is one segment in its new dialog, with the context it copied", async () => {
    const twigTip = tips.twig;
    const data = await executeOk(FORK_DIALOG, { input: { responseId: twigTip } });
    const forked = withField(data.forkDialog, "id");
    const copy = { id: forked.head!.id, dialogId: forked.id };
    const original = await walkedContext(twigTip);
    const copied = await walkedContext(copy.id);
    expect(copied.map((e) => [e.type, e.content])).toEqual(original.map((e) => [e.type, e.content]));
    const segments = await expectSegmentsHold(copy.dialogId);
    expect(segments).toHaveLength(1);
    await expectReadsMatchWalk(copy.id);
    // The fork continues like any chain: its next turn joins the copy's segment.
    const more = await chain("fork-more", 2, copy.id);
    expect(await expectSegmentsHold(copy.dialogId)).toHaveLength(1);
    await expectReadsMatchWalk(more.at(-1)!);
  });

  it("a deleted branch tip frees its place: the next turn from its parent continues the segment", async () => {
    const before = await expectSegmentsHold(dialogId);
    const tip = await prisma.response.findUniqueOrThrow({ where: { id: tips.branch } });
    await deleteResponse(store, tip.id, dialogId);
    const replacement = await turn({ ...step("replacement", 1), previousResponseId: tip.previousResponseId! });
    const after = await expectSegmentsHold(dialogId);
    expect(after.map((s) => s.length)).toEqual(before.map((s) => s.length));
    expect(after.flat().find((r) => r.id === replacement.id)!.segmentId).toBe(tip.segmentId);
    await expectReadsMatchWalk(replacement.id);
  });
});

describe("a page's cost", () => {
  /** A chain of `turns` responses (a question and an answer each), written by importMessages. */
  async function importedChain(turns: number) {
    let tip: string | null = null;
    for (let done = 0; done < turns; done += 500) {
      const messages = Array.from({ length: Math.min(500, turns - done) }, (_, i) => [
        { role: "user", content: `q${done + i}` },
        { role: "assistant", content: `a${done + i}` },
      ]).flat();
      tip = (await importOk({ format: "OPENAI_CHAT", messages, ...(tip ? { previousResponseId: tip } : {}) })).id;
    }
    return tip!;
  }

  /**
   * Index and table pages the page statement touched, from its plan as executed (the function
   * that reads a segment's range runs inside it, so its pages count too).
   */
  async function pagesRead(tip: string, query: Parameters<typeof contextPageStatement>[1]) {
    const statement = contextPageStatement(tip, query);
    const [row] = await database.query<Record<string, unknown>>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.text}`,
      statement.values,
    );
    const plan = Object.values(row!)[0];
    const [{ Plan: top }] = (typeof plan === "string" ? JSON.parse(plan) : plan) as [{ Plan: Record<string, number> }];
    return top["Shared Hit Blocks"]! + top["Shared Read Blocks"]!;
  }

  let shallow: string;
  let deep: string;

  it("reads as many pages and sends the same statements at depth 30 and at depth 2,000", async () => {
    shallow = await importedChain(30);
    deep = await importedChain(2_000);
    // Whatever the statistics say (PGlite never gathers them by itself; PostgreSQL may have): the
    // plan must not depend on them.
    if (process.env.TEST_DATABASE_URL) await database.query(`ANALYZE "Event"`);
    for (const query of [
      { limit: 20, inverted: false },
      { limit: 20, inverted: true },
      { limit: 20, inverted: false, after: { depth: 10, seq: 21 } },
      { limit: 1, inverted: true, types: ["HUMAN" as const] },
    ]) {
      await pagesRead(deep, query); // the first call in a session also reads the catalog
      const [atShallow, atDeep] = [await pagesRead(shallow, query), await pagesRead(deep, query)];
      // A deeper index may have one more level; reading the segment whole would be hundreds more.
      expect(atDeep).toBeLessThanOrEqual(atShallow + 3);
    }
    await executeOk(PAGE, { id: shallow }); // the first request of a file also looks up whether API keys exist
    const atShallow = await countStatements(() => executeOk(PAGE, { id: shallow }));
    const atDeep = await countStatements(() => executeOk(PAGE, { id: deep }));
    expect(atDeep.result.response!.context.totalMessages).toBe(4_000);
    expect(withoutKeyChecks(atDeep.statements).length).toBe(withoutKeyChecks(atShallow.statements).length);
  });

  it("reads a few more pages per branch it passes, not per response", async () => {
    // Branch off near the end of the deep chain, twice: the context now spans three segments.
    const deepRow = await prisma.response.findUniqueOrThrow({ where: { id: deep } });
    const midway = await prisma.response.findFirstOrThrow({
      where: { dialogId: deepRow.dialogId, depth: deepRow.depth - 3 },
    });
    const [b1] = await chain("b", 2, midway.id);
    const [b2] = await chain("bb", 2, b1!);
    const query = { limit: 20, inverted: true };
    const [straight, branched] = [await pagesRead(deep, query), await pagesRead(b2!, query)];
    // Per segment passed: two primary-key probes of "Response" and one descent of the events' index.
    expect(branched).toBeLessThanOrEqual(straight + 2 * 12);
    await expectReadsMatchWalk(b2!);
  });
});

describe("retention", () => {
  it("sweeps expired dialogs with all their segments and events, and a new dialog starts afresh", async () => {
    const { deletedDialogIds } = await sweepExpired(store, { now: new Date(Date.now() + 60_000), retention: 1 });
    expect(deletedDialogIds.length).toBeGreaterThan(3);
    expect(await prisma.response.count()).toBe(0);
    expect(await prisma.event.count()).toBe(0);
    const fresh = await chain("fresh", 3, null);
    expect(
      await expectSegmentsHold((await prisma.response.findUniqueOrThrow({ where: { id: fresh[0]! } })).dialogId),
    ).toHaveLength(1);
    await expectReadsMatchWalk(fresh.at(-1)!);
  });
});
