// What travels with a committed delta through Redis, so that the other instances need not read it
// back. The writer's instance knows the delta's rows when its write returned them (the opening
// write, a step's commit and a turn's end do: `remember`), else reads the delta once (the same
// shared read its own subscribers use, src/live/delta-reads.ts), and sends the events and the
// response row with the payload; another
// instance remembers them as its shared read of that delta, so its subscribers — however many —
// read nothing. A delta too large to carry (CARRY_LIMIT_BYTES) goes as ids, and each instance with
// subscribers reads it once, shared by them. Database reads per write therefore stay the same
// whether 1 or 50 instances watch the dialog.
import type { Event, Response } from "../generated/prisma/client.js";
import type { Store } from "../store/store.js";
import { readDelta, rememberDelta } from "./delta-reads.js";
import type { DeltaCarriage, DeltaPayload, DeltaRows } from "./live-bus.js";

/** Larger deltas go by reference (ids), each instance reading them once. */
export const CARRY_LIMIT_BYTES = 64 * 1024;

interface Carried {
  events: Event[];
  response: Response;
}

// JSON turns the rows' timestamps into strings; these are the DateTime columns of the two tables.
const revive = (value: unknown) => (value == null ? null : new Date(value as string));
const reviveResponse = (row: Response): Response => ({
  ...row,
  createdAt: revive(row.createdAt)!,
  completedAt: revive(row.completedAt),
  inFlightAt: revive(row.inFlightAt),
});
const reviveEvent = (row: Event): Event => ({ ...row, createdAt: revive(row.createdAt)! });

export function deltaCarriage(store: Store): DeltaCarriage {
  return {
    async attach(payload: DeltaPayload) {
      const { events, response } = await readDelta(store, payload);
      const carried: Carried = { events, response };
      return JSON.stringify(carried).length <= CARRY_LIMIT_BYTES ? carried : undefined;
    },
    remember(payload: DeltaPayload, rows: DeltaRows) {
      rememberDelta(store, payload, rows);
    },
    receive(payload: DeltaPayload, carried: unknown) {
      const { events, response } = carried as Carried;
      rememberDelta(store, payload, { events: events.map(reviveEvent), response: reviveResponse(response) });
    },
  };
}
