// Public ids are ULIDs, sortable by creation time, with the prefixes OpenAI's APIs use.
// The monotonic factory keeps ids made in the same millisecond in creation order, so
// ordering dialogs by id is ordering them by age.
import { getRandomValues } from "node:crypto";
import { monotonicFactory, ulid as ulidAt } from "ulid";

// ulid draws each of an id's 16 random characters with its own call into the system's CSPRNG
// (a turn of four events made 80 such calls, a tenth of its CPU time in the write benchmark).
// Drawing the same bytes from a pool the CSPRNG refills 4 KB at a time keeps their quality.
const pool = new Uint8Array(4096);
let next = pool.length;
function pooledRandom() {
  if (next === pool.length) {
    getRandomValues(pool);
    next = 0;
  }
  return pool[next++]! / 256;
}

const ulid = monotonicFactory(pooledRandom);

// An imported conversation's dialog and turns are given ids of their times in the source app (the
// dialog's start, a turn's answer), so that ordering by id orders them by age among the rest.
export const newDialogId = (madeAt?: Date) => (madeAt ? ulidAt(madeAt.getTime(), pooledRandom) : ulid());
export const newResponseId = (madeAt?: Date) => `resp_${madeAt ? ulidAt(madeAt.getTime(), pooledRandom) : ulid()}`;
export const newEventId = () => `evt_${ulid()}`;
export const newCallId = () => `call_${ulid()}`;
export const newBudgetId = () => `bud_${ulid()}`;
