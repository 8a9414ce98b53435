// The changes a write holds back (DialogWrite): a change that nothing in the write reads before
// its next statement goes to the database as a data-modifying CTE of that statement, so a step's
// commit or a turn's end is one round trip instead of four.
import { rowFromJson } from "../db/json-rows.js";
import { Prisma } from "../generated/prisma/client.js";
import type { Event, Response } from "../generated/prisma/client.js";
import { run, type SqlRunner } from "./sql.js";

/** A change held back: its statement, and what it touches. */
interface HeldChange {
  /** "Event" (inserts), "UsageDaily", "InFlightChunk:<response>", "Response:<id>" (that row),
   * "Response:after:<id>" (the rows after it in its segment), "Response:from:<id>" (both). */
  rows: string;
  /** A function is called when the change is sent: a later change of this write may still join it. */
  sql: Prisma.Sql | (() => Prisma.Sql);
  /** What its RETURNING gives (`seq, row` of inserted events; `id, row` of changed responses). */
  returns?: Returned;
}

/** Rows a held-back change returns, for the statement that sends it to answer. */
export type Returned = "events" | "responses";

/** A write's delta as it committed: its events (in seq order) and its response's row. */
export interface DeltaRows {
  events: Event[];
  response: Response;
}

/** The columns deltaColumns() adds to a statement's answer. */
export interface ReturnedDelta {
  events?: unknown[] | null;
  response?: unknown;
}

/** The delta's rows from a statement's answer (deltaColumns), when it has them. */
export function deltaRowsOf({ events, response }: ReturnedDelta): DeltaRows | undefined {
  if (!events || !response) return undefined;
  return {
    events: events.map((event) => rowFromJson("Event", event) as Event),
    response: rowFromJson("Response", response) as Response,
  };
}

/** The held-back changes of one write, sent on its transaction. */
export class HeldChanges {
  #pending: HeldChange[] = [];
  /** The CTEs of the last withHeld() that return rows, by what they return. */
  #returning: Record<Returned, string[]> = { events: [], responses: [] };
  /** A change that returns rows went in a statement whose answer nobody read (flush). */
  #lost = false;

  constructor(private readonly transaction: SqlRunner) {}

  /**
   * Holds back a change that nothing in this write reads before the next statement: it goes to
   * the database as a data-modifying CTE of that statement (most often the dialog row's update in
   * `finish`), so a step's commit or a turn's end is one round trip instead of four. The parts of
   * one statement all see the database as it was before it and must not change the same row
   * twice: `rows` names what a change touches, and one that may touch what a held-back one
   * touches first sends those on their own.
   */
  async hold(rows: string, change: HeldChange["sql"], returns?: Returned) {
    if (this.#pending.some((held) => mayTouchSame(held.rows, rows))) await this.flush();
    this.#pending.push({ rows, sql: change, returns });
  }

  /** Whether a change touching `rows` (as named to `hold`) is held back still, not sent yet. */
  isHeld(rows: string) {
    return this.#pending.some((held) => held.rows === rows);
  }

  /** Sends the held-back changes now, as one statement. */
  async flush() {
    const last = this.#pending.pop();
    if (!last) return;
    if (last.returns || this.#pending.some((held) => held.returns)) this.#lost = true;
    await run(Prisma.sql`${this.withHeld()}${sqlOf(last)}`, this.transaction);
  }

  /** A WITH clause holding every held-back change, for the statement that goes next (empty when none). */
  withHeld() {
    const held = this.#pending.splice(0);
    this.#returning = { events: [], responses: [] };
    if (!held.length) return Prisma.empty;
    const parts = held.map((change, i) => {
      if (change.returns) this.#returning[change.returns].push(`held${i}`);
      return Prisma.sql`${Prisma.raw(`held${i}`)} AS (${sqlOf(change)})`;
    });
    return Prisma.sql`WITH ${Prisma.join(parts)} `;
  }

  /**
   * Columns `events` and `response` for the statement that sends the last withHeld(), in a write
   * that changed only the response `deltaOf`: its events (in seq order) and row as that statement
   * leaves them, from its changes' RETURNING. Nothing without `deltaOf`, or when such rows
   * already went in a statement whose answer nobody read (flush).
   */
  deltaColumns(deltaOf: string | undefined) {
    const { events, responses } = this.#returning;
    if (!deltaOf || this.#lost || !responses.length) return Prisma.empty;
    const union = (names: string[], columns: string) =>
      Prisma.raw(names.map((name) => `SELECT ${columns} FROM ${name}`).join(" UNION ALL "));
    const eventRows = events.length
      ? Prisma.sql`(SELECT COALESCE(jsonb_agg(x.item ORDER BY x.seq), '[]'::jsonb) FROM (${union(events, "seq, item")}) x)`
      : Prisma.sql`'[]'::jsonb`;
    return Prisma.sql`, ${eventRows} AS events,
      (SELECT x.item FROM (${union(responses, "id, item")}) x WHERE x.id = ${deltaOf}) AS response`;
  }
}

const sqlOf = (change: HeldChange) => (typeof change.sql === "function" ? change.sql() : change.sql);

/**
 * Whether two held-back changes may touch the same row. Inserts into "Event" never do (new ids);
 * two ledger upserts may (the same day, key and model), and so may two changes of "Response"
 * rows, except one response's own row beside the rows after it in its segment.
 */
function mayTouchSame(a: string, b: string) {
  if (a === "Event" && b === "Event") return false;
  const ownAndAfter = (own: string, after: string) =>
    /^Response:[^:]+$/.test(own) && after === `Response:after:${own.slice("Response:".length)}`;
  if (ownAndAfter(a, b) || ownAndAfter(b, a)) return false;
  return a === b || (a.startsWith("Response:") && b.startsWith("Response:"));
}
