// Which dialog a response belongs to, as this process last saw it. Responses never move between
// dialogs, so a remembered answer is never wrong while the response exists; a deleted response is
// found missing under the dialog's lock by the write that looks it up (DialogWrite#readResponse),
// as before. A write to an IN_PROGRESS response (a step of a generated turn, its end) then needs no
// statement to find its dialog before it takes the lock.
import type { Store } from "./store.js";

/** Enough for every turn in flight on an instance many times over; the oldest go first. */
const REMEMBERED = 10_000;

/** Per store: two stores in one process (tests) never answer from each other's rows. */
const dialogsOf = new WeakMap<Store, Map<string, string>>();

function remembered(store: Store) {
  let map = dialogsOf.get(store);
  if (!map) dialogsOf.set(store, (map = new Map()));
  return map;
}

export function rememberResponseDialog(store: Store, responseId: string, dialogId: string) {
  const map = remembered(store);
  map.delete(responseId);
  map.set(responseId, dialogId);
  if (map.size > REMEMBERED) map.delete(map.keys().next().value!);
}

export const rememberedDialogOf = (store: Store, responseId: string) => remembered(store).get(responseId);
