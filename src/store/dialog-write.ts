// The write primitive. Every write that changes a dialog's history runs here, in one transaction
// holding the dialog's row lock: seqs are handed out from the locked `lastSeq` (so they are
// gap-free and never reused), the head moves to the newest response, each response's event counts
// and lifecycle columns (`completedAt`, `finishedAtSeq`) change with its events and status, and
// the dialog row is written last, which also extends its retention. What a write must check
// against the history (a tool result's call, a response's status) is checked here, under the
// lock, so a writer that waited for another one sees what that one committed: writers queue,
// and none is told to retry because another won. (src/store/write-turn.ts is the same write for
// one turn in one statement, used when nothing needs checking under the lock.)
import { Prisma } from "../generated/prisma/client.js";
import type { Dialog, Response } from "../generated/prisma/client.js";
import type { ResponseStatus } from "../generated/prisma/enums.js";
import { rowFromJson } from "../db/json-rows.js";
import { extendChatHash, normalMessageTexts } from "../formats/chat-context-hash.js";
import type { ChatHashedEvent } from "../formats/chat-context-hash.js";
import { chatHashAfter, finalChatHash } from "./chat-hash.js";
import type { LockedDialog } from "./dialog-target.js";
import { type DeltaRows, deltaRowsOf, HeldChanges, type Returned, type ReturnedDelta } from "./held-changes.js";
import { responseForWrite, type ResponseForWrite, type UsageRow, usageRowColumns } from "./response-for-write.js";
import { responseForRemoval, type ResponseForRemoval } from "./response-for-write.js";
import type { NewEvent } from "../vocabulary/events.js";
import {
  eventJson,
  type EventPlace,
  eventValueColumns,
  eventValuesFromJson,
  type NewTurn,
  type Phase,
  segmentCountIncrements,
  type Usage,
} from "./rows.js";
import { insertResponseRows, responseRow, type ResponseRow } from "./response-rows.js";
import { run, type SqlRunner } from "./sql.js";
import {
  afterUpdate,
  chunkDelete,
  type OwnSet,
  ownUpdate,
  segmentSums,
  type SegmentUpdate,
  segmentUpdate,
} from "./response-updates.js";
import {
  addToLedger,
  addUsage,
  ledgerStatement,
  dialogUsageSets,
  isNoUsage,
  type LedgerEntry,
  noUsage,
  pricedUsage,
  type UsageSums,
} from "./usage.js";
import type { PriceBook } from "../usage/prices.js";

export interface ResponseChange {
  status?: ResponseStatus;
  usage?: Partial<Usage>;
  /** undefined leaves the error alone; null clears it. */
  error?: unknown;
}

/** A dialog locked for one write. Its methods are the only way seqs, heads and counts change. */
export class DialogWrite {
  #seq: number;
  #head: { id: string; depth: number } | null;
  #headMoved = false;
  #cleared = false;
  /** What this write added to (or took from) the usage of the dialog's responses. */
  #usage = noUsage();
  /** What it charged to the ledger, counted in /metrics once committed. */
  readonly charges: LedgerEntry[] = [];
  /** What `readResponse(…, { forEnd: true })` read of a response for its end, while it still holds. */
  #forEnd = new Map<string, { usage?: UsageRow; events?: ChatHashedEvent[] }>();
  /** responseId → the update of its segment's rows its held-back appendEvents will send (changeResponse joins it). */
  readonly #segmentUpdates = new Map<string, SegmentUpdate>();
  /** Changes held back to go with the next statement (#later). */
  readonly #held: HeldChanges;
  /** The transaction: reads that must see this write, or the history as of the lock. */
  readonly session: SqlRunner;

  constructor(
    readonly dialog: LockedDialog,
    /** The transaction's own session: statements sent here do not wait for the held-back changes. */
    readonly transaction: SqlRunner,
    readonly now: Date,
    readonly prices: PriceBook,
  ) {
    this.#seq = dialog.lastSeq;
    this.#head = dialog.headId == null ? null : { id: dialog.headId, depth: dialog.headDepth ?? 0 };
    // Whatever reads through the session sees every change made so far: the held-back ones go first.
    this.#held = new HeldChanges(transaction);
    this.session = {
      query: async <T>(sql: string, params?: unknown[]) => {
        await this.#held.flush();
        return transaction.query<T>(sql, params);
      },
    };
  }

  /** Holds back a change for the next statement (HeldChanges.hold: `rows` names what it touches). */
  #later(rows: string, change: Prisma.Sql | (() => Prisma.Sql), returns?: Returned) {
    return this.#held.hold(rows, change, returns);
  }

  /** The dialog's last seq so far in this write. */
  get seq() {
    return this.#seq;
  }

  get head() {
    return this.#head;
  }

  /**
   * Inserts `turns` as a chain continuing `parent` (default: the head): each turn continues the
   * one before it, and the last becomes the head. Returns the responses as stored, oldest first.
   */
  async addTurns(turns: NewTurn[], parent: { id: string; depth: number } | null = this.#head): Promise<Response[]> {
    if (!turns.length) return [];
    const now = this.now.toISOString();
    const responses: ResponseRow[] = [];
    const events: EventPlace[] = [];
    const charges: LedgerEntry[] = [];
    let previous = parent;
    const anyFinal = turns.some((turn) => turn.status !== "IN_PROGRESS");
    let chatHash = anyFinal ? await chatHashAfter(this.session, this.dialog, parent) : null;
    for (const turn of turns) {
      const priced = pricedUsage(this.prices, turn.model, turn.usage);
      if (!isNoUsage(priced.sums)) {
        const { tenantId } = this.dialog;
        charges.push({ tenantId, apiKeyId: turn.apiKeyId, model: turn.model, responses: 1, ...priced });
        this.#usage = addUsage(this.#usage, priced.sums);
      }
      const depth = previous ? previous.depth + 1 : 0;
      const place = (index: number) => ({ responseId: turn.id, seq: this.#seq + index + 1, depth });
      events.push(
        ...turn.input.map((event, i) => eventJson(event, "INPUT", place(i))),
        ...turn.output.map((event, i) => eventJson(event, "OUTPUT", place(turn.input.length + i))),
      );
      this.#seq += turn.input.length + turn.output.length;
      const final = turn.status !== "IN_PROGRESS";
      // A turn still in progress has no hash yet, so neither have the turns continuing it.
      chatHash =
        final && chatHash ? extendChatHash(chatHash, normalMessageTexts([...turn.input, ...turn.output])) : null;
      responses.push(responseRow(turn, { previous, depth, cost: priced.sums.cost, chatHash, now, seq: this.#seq }));
      previous = { id: turn.id, depth };
    }
    const stored = await insertResponseRows(this.session, this.dialog.id, parent?.id ?? null, responses, now);
    const segmentId = stored[0]!.segmentId;
    await this.#insertEvents(events.map((event) => ({ ...event, segmentId })));
    await addToLedger(this.session, charges, this.dialog.id, this.now);
    this.charges.push(...charges);
    this.#head = previous;
    this.#headMoved = true;
    return stored;
  }

  /**
   * Appends `events` to a response already in this dialog, after everything written so far. With
   * `endsText`, the response's checkpointed in-flight text goes in the same write (the text is
   * among the events, or dropped), as `eraseCheckpoint` would erase it after.
   */
  async appendEvents(responseId: string, events: NewEvent[], phase: Phase = "OUTPUT", { endsText = false } = {}) {
    if (!events.length) return;
    // Its events read for its end go on with these, as the end's chat hash is made from all of them.
    const forEnd = this.#forEnd.get(responseId);
    if (forEnd?.events) forEnd.events = [...forEnd.events, ...events];
    const rows = events.map((event, i) => eventJson(event, phase, { responseId, seq: this.#seq + i + 1 }));
    this.#seq += events.length;
    // The events take the response's place in the context addressing, and its segment counts
    // grow, with those of the responses after it in its segment (there are some only when the
    // response was continued while still in progress).
    await this.#later(
      `Event`,
      Prisma.sql`
      INSERT INTO "Event" (id, "dialogId", "responseId", seq, "segmentId", depth, ${eventValueColumns})
      SELECT ev->>'id', ${this.dialog.id}, ev->>'responseId', (ev->>'seq')::int, p."segmentId", p.depth,
        ${eventValuesFromJson(this.now.toISOString())}
      FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) AS ev,
        (SELECT "segmentId", depth FROM "Response" WHERE "dialogId" = ${this.dialog.id} AND id = ${responseId}) p
      RETURNING seq, to_jsonb("Event") AS item`,
      "events",
    );
    // The response's agent was heard from: the idle sweep measures from here (inFlightAt).
    const update: SegmentUpdate = {
      all: [
        ...segmentCountIncrements(events, "u", Prisma.sql`p.depth`),
        Prisma.sql`"inFlightAt" = CASE WHEN u.id = ${responseId} AND u.status = 'IN_PROGRESS'
      THEN ${this.now.toISOString()}::timestamp ELSE u."inFlightAt" END`,
      ],
      own: [],
    };
    if (endsText) {
      update.own.push(["inFlightPart", Prisma.sql`NULL`], ["inFlightType", Prisma.sql`NULL`]);
      await this.#later(`InFlightChunk:${responseId}`, chunkDelete(this.dialog.id, responseId));
    }
    // Made when it is sent: a change of the response's own row in this write (its end) joins it.
    this.#segmentUpdates.set(responseId, update);
    await this.#later(
      `Response:from:${responseId}`,
      () => segmentUpdate(this.dialog.id, responseId, update),
      "responses",
    );
  }

  /**
   * Changes a response's status, usage or error; a final status stamps `completedAt` and
   * `finishedAtSeq`. After events appended to it in this write and not sent yet, the change joins
   * their update of its segment's rows: a step's commit and the turn's end are one statement.
   */
  async changeResponse(responseId: string, change: ResponseChange) {
    const own: OwnSet[] = [];
    const final = change.status !== undefined && change.status !== "IN_PROGRESS";
    if (change.status) own.push(["status", Prisma.sql`${change.status}::"ResponseStatus"`]);
    if (final) {
      const events = this.#forEnd.get(responseId)?.events;
      own.push(
        ["completedAt", Prisma.sql`${this.now.toISOString()}::timestamp`],
        ["finishedAtSeq", Prisma.sql`${this.#seq}::int`],
        ["chatHash", await finalChatHash(this.session, this.dialog, responseId, events)],
      );
    }
    const usage = Object.entries(change.usage ?? {}).filter(([, value]) => value !== undefined);
    // Only the counts given are set; absent ones keep what they were.
    for (const [field, value] of usage) own.push([field, Prisma.sql`${value}::int`]);
    if (change.error !== undefined)
      own.push(["error", Prisma.sql`${change.error == null ? null : JSON.stringify(change.error)}::jsonb`]);
    if (!own.length) return;
    const priced = usage.length ? await this.#changeUsage(responseId, Object.fromEntries(usage)) : null;
    if (priced) own.push(["cost", Prisma.sql`${priced.cost}::float8`]);
    // A final status ends the in-flight text: its checkpointed pieces go in the same statement,
    // whichever instance held the text (an append that ended it deletes them already).
    if (final && !this.#held.isHeld(`InFlightChunk:${responseId}`)) {
      await this.#later(`InFlightChunk:${responseId}`, chunkDelete(this.dialog.id, responseId));
    }
    const segment = this.#segmentUpdates.get(responseId);
    // One UPDATE sets a column once: a second change of the same columns in this write is not joined.
    const joinable = segment && !own.some(([column]) => segment.own.some(([set]) => set === column));
    if (joinable && this.#held.isHeld(`Response:from:${responseId}`)) {
      // The segment's rows from this response on take the usage sums, as its own row takes them.
      segment.own.push(...own);
      if (priced?.delta) segment.all.push(...segmentSums(priced.delta, "u."));
      return;
    }
    const sums = priced?.delta ? segmentSums(priced.delta) : [];
    if (priced?.delta) {
      const { segmentId, depth } = priced;
      await this.#later(`Response:after:${responseId}`, afterUpdate(this.dialog.id, segmentId, depth, sums));
    }
    await this.#later(`Response:${responseId}`, ownUpdate(this.dialog.id, responseId, own, sums), "responses");
  }

  /**
   * A response's usage changes to `next` (the counts given; others keep theirs): the difference,
   * priced, goes to the ledger, and is answered (null: none) for the caller to add to the
   * response's segment sums (its own row's and those after it), with its new cost; null when the
   * response is not there.
   */
  async #changeUsage(responseId: string, next: Partial<Usage>) {
    const known = this.#forEnd.get(responseId);
    // Read once: this change makes it stale.
    const [row] = known?.usage
      ? [known.usage]
      : await run<UsageRow>(
          Prisma.sql`SELECT ${usageRowColumns} FROM "Response" WHERE "dialogId" = ${this.dialog.id} AND id = ${responseId}`,
          this.session,
        );
    if (known) delete known.usage;
    if (!row) return null;
    const before = { ...pricedUsage(this.prices, row.model, row).sums, cost: row.cost };
    const after = pricedUsage(this.prices, row.model, { ...row, ...next });
    const delta = addUsage(after.sums, before, -1);
    const { segmentId, depth } = row;
    if (isNoUsage(delta)) return { cost: row.cost, delta: null, segmentId, depth };
    this.#usage = addUsage(this.#usage, delta);
    const first = [row.inputTokens, row.outputTokens, row.cachedTokens, row.reasoningTokens].every((n) => n == null);
    const charge = {
      tenantId: this.dialog.tenantId,
      apiKeyId: row.apiKeyId,
      model: row.model,
      responses: first ? 1 : 0,
      sums: delta,
      unpricedTokens: after.unpricedTokens - pricedUsage(this.prices, row.model, row).unpricedTokens,
    };
    const ledger = ledgerStatement(charge, this.dialog.id, this.now);
    if (ledger) await this.#later(`UsageDaily`, ledger);
    this.charges.push(charge);
    return { cost: after.sums.cost, delta, segmentId, depth };
  }

  /**
   * A response of this dialog as it is under the lock (null when it is not there). `forEnd`: the
   * write is going to give it its final status, so what that needs (its usage, its events for the
   * chat hash) is read in the same statement, and used while this write has not changed it.
   */
  async readResponse(responseId: string, { forEnd = false } = {}) {
    const peeked = this.dialog.peeked?.id === responseId ? this.dialog.peeked : undefined;
    // Read with the lock only once: this write may change it.
    delete this.dialog.peeked;
    const [row] = peeked
      ? [peeked.row]
      : await run<ResponseForWrite>(responseForWrite(this.dialog.id, responseId, forEnd), this.session);
    if (!row || row.dialogId !== this.dialog.id) return null;
    if (forEnd) {
      const { status: _status, dialogId: _dialogId, events, ...usage } = row;
      this.#forEnd.set(responseId, { usage: usage as UsageRow, events });
    }
    return { status: row.status, dialogId: row.dialogId };
  }

  /**
   * Clearing a dialog: every response and event goes; seqs are never reused, so lastSeq stays,
   * and `clearedAtSeq` records it for subscribers that resume from before it.
   */
  async removeAllResponses() {
    const [{ count }] = (await run<{ count: number }>(
      Prisma.sql`WITH gone AS (DELETE FROM "Response" WHERE "dialogId" = ${this.dialog.id} RETURNING 1)
        SELECT count(*)::int AS count FROM gone`,
      this.session,
    )) as [{ count: number }];
    this.#head = null;
    this.#headMoved = true;
    this.#cleared = true;
    this.#usage = noUsage();
    return count;
  }

  /**
   * Deletes one response of this dialog with its events, unless another response continues it
   * (that would take its context away). When it was the head, its parent becomes the head.
   */
  async removeLeafResponse(responseId: string): Promise<"removed" | "not-found" | "continued"> {
    const [row] = await run<ResponseForRemoval>(responseForRemoval(this.dialog.id, responseId), this.session);
    if (!row) return "not-found";
    if (row.children) return "continued";
    const [gone] = await run<UsageSums>(
      Prisma.sql`DELETE FROM "Response" WHERE "dialogId" = ${this.dialog.id} AND id = ${responseId}
        RETURNING COALESCE("inputTokens", 0) AS "inputTokens", COALESCE("outputTokens", 0) AS "outputTokens",
          COALESCE("cachedTokens", 0) AS "cachedTokens", COALESCE("reasoningTokens", 0) AS "reasoningTokens", cost`,
      this.session,
    );
    // The dialog's totals follow its responses; the ledger keeps what was spent.
    if (gone) this.#usage = addUsage(this.#usage, gone, -1);
    if (this.#head?.id === responseId) {
      this.#head = row.previousResponseId ? { id: row.previousResponseId, depth: row.depth - 1 } : null;
      this.#headMoved = true;
    }
    return "removed";
  }

  /**
   * Takes over rows another statement of this write inserted (src/store/fork-copy.ts): `events`
   * more seqs are used and `head` is the new head.
   */
  adoptCopied(events: number, head: { id: string; depth: number }, usage: UsageSums) {
    this.#seq += events;
    this.#usage = addUsage(this.#usage, usage);
    this.#head = head;
    this.#headMoved = true;
  }

  /** Inserts events placed by eventJson, each with its response, seq, segment and depth. */
  async #insertEvents(rows: EventPlace[]) {
    if (!rows.length) return;
    await run(
      Prisma.sql`
      INSERT INTO "Event" (id, "dialogId", "responseId", seq, "segmentId", depth, ${eventValueColumns})
      SELECT ev->>'id', ${this.dialog.id}, ev->>'responseId', (ev->>'seq')::int, ev->>'segmentId', (ev->>'depth')::int,
        ${eventValuesFromJson(this.now.toISOString())}
      FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) AS ev`,
      this.session,
    );
  }

  /**
   * Writes the dialog row: last seq, head, and updatedAt (every write extends retention). A write
   * that changed only the response `deltaOf` also gets its events and row as the statement leaves
   * them (`delta`, from its held-back changes when they went with it), so its delta needs no read.
   * It is the write's last statement: sent on `last`, the transaction's commit can go with it.
   */
  async finish(deltaOf?: string, last: SqlRunner = this.transaction): Promise<{ dialog: Dialog; delta?: DeltaRows }> {
    const head = this.#head;
    const withHeld = this.#held.withHeld();
    const [row] = await run<{ row: unknown } & ReturnedDelta>(
      Prisma.sql`${withHeld}UPDATE "Dialog" SET "lastSeq" = ${this.#seq}::int, "updatedAt" = ${this.now.toISOString()}::timestamp
        ${this.#headMoved ? Prisma.sql`, "headId" = ${head?.id ?? null}, "headDepth" = ${head?.depth ?? null}::int` : Prisma.empty}
        ${this.#cleared ? Prisma.sql`, "clearedAtSeq" = ${this.#seq}::int` : Prisma.empty}
        ${this.#cleared || !isNoUsage(this.#usage) ? Prisma.sql`, ${dialogUsageSets(this.#usage, this.#cleared)}` : Prisma.empty}
        WHERE id = ${this.dialog.id} RETURNING to_jsonb("Dialog") AS row${this.#held.deltaColumns(deltaOf)}`,
      last,
    );
    return { dialog: rowFromJson("Dialog", row!.row) as Dialog, delta: deltaRowsOf(row!) };
  }
}
