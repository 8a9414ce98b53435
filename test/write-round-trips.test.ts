// The waits for PostgreSQL's answers on an MCP turn's way (PostgreSQL only: PGlite runs in this
// process and has no round trip). Each write to a dialog is a transaction of the lock and one
// statement; its BEGIN goes out with the lock and its COMMIT with the statement
// (src/db/postgres-database.ts, pipelinedTransaction), so it waits for the server twice, not four
// times. Watched from outside the code under test: every query any pg client of this process
// sends is recorded, and one sent while an earlier one on the same connection is unanswered
// travels in the same round trip as it.
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { startTestMcpServer } from "./support/mcp-servers.js";

/** Each round trip: the texts sent in it, in order. */
const trips: string[][] = [];
const open = new WeakMap<object, { unanswered: number; trip: string[] }>();

// The same on the wire: a round trip begins when a message that the server answers with
// ReadyForQuery (a simple Query, 'Q', or an extended query's Sync, 'S') is written while none is
// unanswered on that connection. Without pipelining each query waits for the one before on the
// wire, whatever the calls above look like.
let wireTrips = 0;
type Wire = {
  stream: { write: (chunk: Buffer, ...rest: unknown[]) => boolean };
  prependListener(event: string, listener: () => void): void;
};
const watched = new WeakSet<object>();
function watchWire(connection: Wire) {
  if (watched.has(connection)) return;
  watched.add(connection);
  let unanswered = 0;
  const write = connection.stream.write.bind(connection.stream);
  connection.stream.write = (chunk: Buffer, ...rest: unknown[]) => {
    const answered = chunk[0] === 0x51 || (chunk[0] === 0x53 && chunk.length === 5);
    if (answered && unanswered++ === 0) wireTrips++;
    return write(chunk, ...rest);
  };
  // Before pg's own listener, which may send the next query at once.
  connection.prependListener("readyForQuery", () => void unanswered--);
}

const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: object, ...args: unknown[]) {
  watchWire((this as { connection: Wire }).connection);
  const config = args[0] as string | { text?: string };
  const text = (typeof config === "string" ? config : (config?.text ?? "")).trim();
  let state = open.get(this);
  if (!state || state.unanswered === 0) trips.push((state = { unanswered: 0, trip: [] }).trip);
  open.set(this, state);
  state.trip.push(text);
  state.unanswered++;
  const answered = () => void state.unanswered--;
  const last = args.length - 1;
  const callback = args[last];
  if (typeof callback === "function") {
    args[last] = (...answer: unknown[]) => {
      answered();
      return (callback as (...a: unknown[]) => unknown)(...answer);
    };
    return query.apply(this, args);
  }
  const result = query.apply(this, args) as Promise<unknown> | undefined;
  result?.then(answered, answered);
  return result;
} as typeof pg.Client.prototype.query;

const isLock = (sql: string) => /FROM "Dialog" WHERE id = \$\d+ FOR UPDATE/.test(sql);

let g: GeneratingServer;
beforeAll(async () => {
  g = await startGeneratingServer();
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("round trips of an MCP turn's writes", () => {
  it("sends each write's BEGIN with its lock and its COMMIT with its statement: two waits a write", async () => {
    const mcp = await startTestMcpServer();
    g.upstream.script(
      { output: [{ toolCall: { name: "add", arguments: '{"a":1,"b":2}' } }] },
      { output: [{ text: "3" }] },
    );
    const from = trips.length;
    const wireFrom = wireTrips;
    const response = await g.openai.responses.create({
      model: "stand-in-1",
      input: "Add 1 and 2",
      tools: [{ type: "mcp", server_label: "calc", server_url: mcp.url, require_approval: "never" }],
    });
    expect(response.status).toBe("completed");
    const turn = trips.slice(from);
    const shown = turn.map((trip) => trip.map((sql) => sql.replace(/\s+/g, " ").slice(0, 60)).join(" | ")).join("\n");
    // The listing, the model's call, its result, and the answer with the end: four writes.
    const begun = turn.filter((trip) => trip.includes("BEGIN"));
    expect(begun.length, shown).toBe(4);
    for (const trip of begun) expect(trip.length, shown).toBe(2);
    for (const trip of begun) expect(isLock(trip[1]!), shown).toBe(true);
    const committed = turn.filter((trip) => trip.includes("COMMIT"));
    expect(committed.length, shown).toBe(4);
    for (const trip of committed) expect(trip.map((sql) => sql.startsWith("WITH held0 AS") || sql), shown).toEqual([true, "COMMIT"]); // prettier-ignore
    // And on the wire: as many round trips as the calls above group (BEGIN and its lock in one).
    expect(wireTrips - wireFrom, shown).toBe(turn.length);
  });
});
