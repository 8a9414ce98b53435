// Public ids are ULIDs, sortable by creation time, with the prefixes OpenAI's APIs use.
// The monotonic factory keeps ids made in the same millisecond in creation order, so
// ordering dialogs by id is ordering them by age.
import { monotonicFactory } from "ulid";

const ulid = monotonicFactory();

export const newDialogId = () => ulid();
export const newResponseId = () => `resp_${ulid()}`;
export const newEventId = () => `evt_${ulid()}`;
export const newCallId = () => `call_${ulid()}`;
