// The changes a write holds back (DialogWrite): a change that nothing in the write reads before
// its next statement goes to the database as a data-modifying CTE of that statement, so a step's
// commit or a turn's end is one round trip instead of four.
import { Prisma } from "../generated/prisma/client.js";
import { run, type SqlRunner } from "./sql.js";

/** A change held back: its statement, and what it touches. */
interface HeldChange {
  /** "Event" (inserts), "UsageDaily", "InFlightChunk:<response>", "Response:<id>" (that row),
   * "Response:after:<id>" (the rows after it in its segment), "Response:from:<id>" (both). */
  rows: string;
  sql: Prisma.Sql;
}

/** The held-back changes of one write, sent on its transaction. */
export class HeldChanges {
  #pending: HeldChange[] = [];

  constructor(private readonly transaction: SqlRunner) {}

  /**
   * Holds back a change that nothing in this write reads before the next statement: it goes to
   * the database as a data-modifying CTE of that statement (most often the dialog row's update in
   * `finish`), so a step's commit or a turn's end is one round trip instead of four. The parts of
   * one statement all see the database as it was before it and must not change the same row
   * twice: `rows` names what a change touches, and one that may touch what a held-back one
   * touches first sends those on their own.
   */
  async hold(rows: string, change: Prisma.Sql) {
    if (this.#pending.some((held) => mayTouchSame(held.rows, rows))) await this.flush();
    this.#pending.push({ rows, sql: change });
  }

  /** Sends the held-back changes now, as one statement. */
  async flush() {
    const last = this.#pending.pop();
    if (!last) return;
    await run(Prisma.sql`${this.withHeld()}${last.sql}`, this.transaction);
  }

  /** A WITH clause holding every held-back change, for the statement that goes next (empty when none). */
  withHeld() {
    const held = this.#pending.splice(0);
    if (!held.length) return Prisma.empty;
    const parts = held.map((change, i) => Prisma.sql`${Prisma.raw(`held${i}`)} AS (${change.sql})`);
    return Prisma.sql`WITH ${Prisma.join(parts)} `;
  }
}

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
