// `POST /v1/responses/{id}/cancel`, from any instance: the turn is stopped where it runs and the
// answer comes once its end is committed (src/generation/turn-cancel.ts).
import { cancelTurn } from "../generation/turn-cancel.js";
import type { ResponsesDeps } from "./responses-deps.js";
import { readResponseView } from "./stored-responses.js";

export async function cancel(id: string, dialogId: string, deps: ResponsesDeps) {
  // The text typed so far is kept as the partial answer, as a cancel where the turn runs keeps it.
  await cancelTurn(id, dialogId, deps, () => deps.writes.cancelResponse(id));
  return readResponseView(deps.store, id);
}
