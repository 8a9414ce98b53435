// A running turn's /v1 view once it has ended (src/generation/turn-end.ts waits for that end).
import { untilTurnEnds, type UntilTurnEndsOptions } from "../generation/turn-end.js";
import type { ResponsesDeps } from "./responses-deps.js";
import type { ResponseView } from "./response-object.js";
import { readResponseView } from "./stored-responses.js";

/** The response's view once it is no longer IN_PROGRESS, or at the deadline, or at shutdown. */
export async function untilEnded(
  deps: Pick<ResponsesDeps, "live" | "store">,
  id: string,
  dialogId: string,
  options: UntilTurnEndsOptions = {},
): Promise<ResponseView> {
  await untilTurnEnds(deps, id, dialogId, options);
  return readResponseView(deps.store, id);
}
