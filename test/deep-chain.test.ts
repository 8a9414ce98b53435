// Reading the context at the end of a 1,000-response chain costs a constant number of SQL
// statements: the context is addressed by segments (one, for a linear chain), never walked one
// query per turn.
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { newDialogId, newEventId, newResponseId } from "../src/ids.js";
import { executeOk } from "./support/graphql.js";
import { countStatements, withoutKeyChecks } from "./support/query-counter.js";
import { graphql } from "../src/client/generated/index.js";
import { withField } from "./support/narrow.js";

/** Stores a linear chain of `depth` turns (human + ai each) directly, and returns its responses. */
async function storeChain(depth: number) {
  const dialogId = newDialogId();
  const ids = Array.from({ length: depth }, () => newResponseId());
  await prisma.dialog.create({ data: { id: dialogId, lastSeq: depth * 2 } });
  await prisma.response.createMany({
    data: ids.map((id, i) => ({
      id,
      dialogId,
      depth: i,
      previousResponseId: i ? ids[i - 1]! : null,
      status: "COMPLETED" as const,
      model: "m",
      // Written directly, so the counts every write path keeps are set here (one question, one
      // answer), and the chain's place in the context addressing: one segment, named after its root.
      humanEvents: 1,
      aiEvents: 1,
      segmentId: ids[0]!,
      humanEventsInSegment: i + 1,
      aiEventsInSegment: i + 1,
    })),
  });
  await prisma.event.createMany({
    data: ids.flatMap((responseId, i) => [
      {
        id: newEventId(),
        dialogId,
        responseId,
        segmentId: ids[0]!,
        depth: i,
        seq: 2 * i + 1,
        phase: "INPUT" as const,
        type: "HUMAN" as const,
        content: `q${i}`,
      },
      {
        id: newEventId(),
        dialogId,
        responseId,
        segmentId: ids[0]!,
        depth: i,
        seq: 2 * i + 2,
        phase: "OUTPUT" as const,
        type: "AI" as const,
        content: `a${i}`,
      },
    ]),
  });
  await prisma.dialog.update({ where: { id: dialogId }, data: { headId: ids.at(-1)! } });
  return { dialogId, ids };
}

const CONTEXT = graphql(`
  query DeepChainResponseContext($id: ID!) {
    response(id: $id) {
      context(first: 10000) {
        totalMessages
        totalReasoning
        totalToolCalls
        edges {
          node {
            ... on BaseHistoryEvent {
              seq
              response {
                id
                model
              }
            }
            ... on HumanEvent {
              content
            }
          }
        }
      }
    }
  }
`);

const HISTORY_PAGE = graphql(`
  query DeepChainDialogHistory($id: ID!) {
    dialog(id: $id) {
      history(last: 20) {
        totalMessages
        edges {
          node {
            ... on BaseHistoryEvent {
              seq
            }
            ... on AiEvent {
              content
            }
          }
        }
      }
    }
  }
`);

let short: Awaited<ReturnType<typeof storeChain>>;
let long: Awaited<ReturnType<typeof storeChain>>;

beforeAll(async () => {
  short = await storeChain(10);
  long = await storeChain(1000);
});

describe("context of a deep chain", () => {
  it("is complete and in order at depth 1,000", async () => {
    const data = await executeOk(CONTEXT, { id: long.ids.at(-1)! });
    const edges = data.response!.context.edges;
    expect(data.response!.context.totalMessages).toBe(2000);
    expect(edges).toHaveLength(2000);
    expect(edges.map((e) => e.node.seq)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
    expect(edges[0]!.node).toEqual({ seq: 1, response: { id: long.ids[0], model: "m" }, content: "q0" });
  });

  it("costs the same small number of statements at depth 10 and at depth 1,000", async () => {
    const atTen = await countStatements(() => executeOk(CONTEXT, { id: short.ids.at(-1)! }));
    const atThousand = await countStatements(() => executeOk(CONTEXT, { id: long.ids.at(-1)! }));
    expect(atThousand.result.response!.context.edges).toHaveLength(2000);
    expect(withoutKeyChecks(atThousand.statements).length).toBe(withoutKeyChecks(atTen.statements).length);
    // response lookup, context page, totals, and one batched load of the events' responses.
    expect(withoutKeyChecks(atThousand.statements).length).toBeLessThanOrEqual(4);
  });

  it("pages the head's history from the end in constant statements too", async () => {
    const atTen = await countStatements(() => executeOk(HISTORY_PAGE, { id: short.dialogId }));
    const atThousand = await countStatements(() => executeOk(HISTORY_PAGE, { id: long.dialogId }));
    const edges = atThousand.result.dialog!.history.edges;
    expect(edges.map((e) => e.node.seq)).toEqual(Array.from({ length: 20 }, (_, i) => 1981 + i));
    expect(withField(edges.at(-1)!.node, "content").content).toBe("a999");
    expect(withoutKeyChecks(atThousand.statements).length).toBe(withoutKeyChecks(atTen.statements).length);
    expect(withoutKeyChecks(atThousand.statements).length).toBeLessThanOrEqual(3);
  });
});
