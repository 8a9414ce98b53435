// The GraphQL-server peer of the bench (issue 20): what a hand-written graphql-yoga + node-postgres
// server over dialogql's tables looks like, with no Prisma and no Pothos. It answers the bench's
// own documents (same type and field names) over the same rows: a dialog's history by
// (dialogId, seq), a response's context by a recursive CTE over the chain, and a turn written in
// one transaction that assigns gap-free seqs under the dialog's row lock, as dialogql does.
import { randomUUID } from "node:crypto";
import { createSchema, createYoga } from "graphql-yoga";

type Row = Record<string, any>;
export interface PeerDatabase {
  query(sql: string, params?: unknown[]): Promise<Row[]>;
  transaction<T>(work: (tx: { query: PeerDatabase["query"] }) => Promise<T>): Promise<T>;
}

const typeDefs = /* GraphQL */ `
  scalar DateTime
  scalar JSON
  interface BaseHistoryEvent {
    id: ID!
    seq: Int!
    type: String!
    createdAt: DateTime!
  }
  type HumanEvent implements BaseHistoryEvent {
    id: ID!
    seq: Int!
    type: String!
    createdAt: DateTime!
    content: String!
  }
  type AiEvent implements BaseHistoryEvent {
    id: ID!
    seq: Int!
    type: String!
    createdAt: DateTime!
    content: String!
  }
  type ReasoningEvent implements BaseHistoryEvent {
    id: ID!
    seq: Int!
    type: String!
    createdAt: DateTime!
    content: String!
    modelName: String
  }
  type ToolCallEvent implements BaseHistoryEvent {
    id: ID!
    seq: Int!
    type: String!
    createdAt: DateTime!
    callId: String!
    toolName: String!
    args: JSON!
  }
  union HistoryEvent = HumanEvent | AiEvent | ReasoningEvent | ToolCallEvent
  type HistoryEdge {
    cursor: String!
    node: HistoryEvent!
  }
  type HistoryConnection {
    totalMessages: Int!
    edges: [HistoryEdge!]!
  }
  type Dialog {
    id: ID!
    eventCount: Int!
    history(first: Int, after: String): HistoryConnection!
  }
  type Response {
    id: ID!
    dialog: Dialog!
    context(first: Int): HistoryConnection!
  }
  interface Error {
    message: String!
  }
  type ValidationError implements Error {
    message: String!
  }
  union CreateResponseResult = Response | ValidationError
  input MessageEventInput {
    content: String!
  }
  input ReasoningEventInput {
    content: String!
    modelName: String
  }
  input ToolCallEventInput {
    callId: String!
    toolName: String!
    args: JSON!
  }
  input HistoryEventInput {
    human: MessageEventInput
    ai: MessageEventInput
    reasoning: ReasoningEventInput
    toolCall: ToolCallEventInput
  }
  input CreateResponseInput {
    dialogId: ID
    input: [HistoryEventInput!]!
    output: [HistoryEventInput!]!
    model: String
  }
  type Query {
    dialog(id: ID!): Dialog
    response(id: ID!): Response
  }
  type Mutation {
    createResponse(input: CreateResponseInput!): CreateResponseResult!
  }
`;

const EVENT_COLUMNS = `e.id, e.seq, e.type, e."createdAt", e.content, e."modelName", e."callId", e."toolName", e.args`;
const TYPENAMES: Row = { HUMAN: "HumanEvent", AI: "AiEvent", REASONING: "ReasoningEvent", TOOL_CALL: "ToolCallEvent" };
const INPUT_TYPES: Row = { human: "HUMAN", ai: "AI", reasoning: "REASONING", toolCall: "TOOL_CALL" };
const edges = (rows: Row[]) => rows.map((node) => ({ cursor: String(node.seq), node }));

export function peerServer(db: PeerDatabase) {
  const resolvers = {
    Query: {
      dialog: async (_: unknown, { id }: Row) =>
        (await db.query(`SELECT id, "lastSeq" FROM "Dialog" WHERE id = $1`, [id]))[0] ?? null,
      response: async (_: unknown, { id }: Row) =>
        (await db.query(`SELECT id, "dialogId" FROM "Response" WHERE id = $1`, [id]))[0] ?? null,
    },
    Dialog: {
      eventCount: (dialog: Row) => dialog.lastSeq,
      history: async (dialog: Row, { first, after }: Row) => ({
        totalMessages: dialog.lastSeq,
        edges: edges(
          await db.query(
            `SELECT ${EVENT_COLUMNS} FROM "Event" e WHERE e."dialogId" = $1 AND e.seq > $2 ORDER BY e.seq LIMIT $3`,
            [dialog.id, Number(after ?? 0), first ?? 100],
          ),
        ),
      }),
    },
    Response: {
      dialog: async (response: Row) => resolvers.Query.dialog(null, { id: response.dialogId }),
      context: async (response: Row, { first }: Row) => {
        const rows = await db.query(
          `WITH RECURSIVE chain AS (
             SELECT id, "previousResponseId", depth FROM "Response" WHERE id = $1
             UNION ALL
             SELECT r.id, r."previousResponseId", r.depth FROM "Response" r JOIN chain c ON r.id = c."previousResponseId")
           SELECT ${EVENT_COLUMNS}, count(*) OVER ()::int AS total
           FROM chain c JOIN "Event" e ON e."responseId" = c.id ORDER BY c.depth, e.seq LIMIT $2`,
          [response.id, first ?? 100],
        );
        return { totalMessages: rows[0]?.total ?? 0, edges: edges(rows) };
      },
    },
    HistoryEvent: { __resolveType: (event: Row) => TYPENAMES[event.type] },
    CreateResponseResult: { __resolveType: (result: Row) => (result.message ? "ValidationError" : "Response") },
    Mutation: { createResponse: (_: unknown, { input }: Row) => db.transaction((tx) => writeTurn(tx, input)) },
  };
  return createYoga({ schema: createSchema({ typeDefs, resolvers }), logging: false, graphiql: false });
}

async function writeTurn(tx: Pick<PeerDatabase, "query">, input: Row) {
  // The tables' segment columns (dialogql's addressing) must be filled; a linear dialog, which is
  // all this server writes, is one segment named after its root response.
  const [dialog] = input.dialogId
    ? await tx.query(
        `SELECT d.id, d."lastSeq", d."headId", d."headDepth", h."segmentId" FROM "Dialog" d
         LEFT JOIN "Response" h ON h.id = d."headId" WHERE d.id = $1 FOR UPDATE OF d`,
        [input.dialogId],
      )
    : await tx.query(
        `INSERT INTO "Dialog" (id, "updatedAt") VALUES ($1, now()) RETURNING id, "lastSeq", "headId", "headDepth", NULL AS "segmentId"`,
        [`dlg_${randomUUID()}`],
      );
  if (!dialog) return { message: "no such dialog" };
  const events = [
    ...input.input.map((event: Row) => ["INPUT", event]),
    ...input.output.map((event: Row) => ["OUTPUT", event]),
  ].map(([phase, event]) => {
    const [key, fields] = Object.entries(event as Row)[0]! as [string, Row];
    return [randomUUID(), phase, INPUT_TYPES[key], fields.content ?? null, fields.modelName ?? null, fields.callId ?? null, fields.toolName ?? null, fields.args ? JSON.stringify(fields.args) : null]; // prettier-ignore
  });
  const id = `resp_${randomUUID()}`;
  const depth = dialog.headDepth === null ? 0 : dialog.headDepth + 1;
  const lastSeq = dialog.lastSeq + events.length;
  const segmentId = dialog.segmentId ?? id;
  await tx.query(
    `INSERT INTO "Response" (id, "dialogId", "previousResponseId", depth, model, status, "completedAt", "finishedAtSeq", "segmentId")
     VALUES ($1, $2, $3, $4, $5, 'COMPLETED', now(), $6, $7)`,
    [id, dialog.id, dialog.headId, depth, input.model ?? null, lastSeq, segmentId],
  );
  const values = events.map((_, i) => `($${5 + i * 9}::int, ${[1, 2, 3, 4, 5, 6, 7, 8].map((k) => `$${5 + i * 9 + k}`).join(", ")})`); // prettier-ignore
  await tx.query(
    `INSERT INTO "Event" (id, "dialogId", "responseId", "segmentId", depth, seq, phase, type, content, "modelName", "callId", "toolName", args)
     SELECT v.id, $1, $2, $3, $4::int, v.seq, v.phase::"EventPhase", v.type::"HistoryEventType", v.content, v.model, v.call, v.tool, v.args::jsonb
     FROM (VALUES ${values.join(", ")}) AS v(seq, id, phase, type, content, model, call, tool, args)`,
    [dialog.id, id, segmentId, depth, ...events.flatMap((row, i) => [dialog.lastSeq + i + 1, ...row])],
  );
  await tx.query(
    `UPDATE "Dialog" SET "lastSeq" = $2, "headId" = $3, "headDepth" = $4, "updatedAt" = now() WHERE id = $1`,
    [dialog.id, lastSeq, id, depth],
  );
  return { id, dialogId: dialog.id };
}
