// Public ids are ULIDs, sortable by creation time, with the prefixes OpenAI's APIs use.
// The monotonic factory keeps ids made in the same millisecond in creation order, so
// ordering dialogs by id is ordering them by age.
import { getRandomValues } from "node:crypto";
import { monotonicFactory } from "ulid";

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

export const newDialogId = () => ulid();
export const newResponseId = () => `resp_${ulid()}`;
export const newEventId = () => `evt_${ulid()}`;
export const newCallId = () => `call_${ulid()}`;
export const newBudgetId = () => `bud_${ulid()}`;
