// A stored turn through the `openai` SDK, answered whole, that returns once its context is kept:
// the read of its own events that keeps it (after its end is committed) has run. Tests of the kept
// context and of the early first call start from such turns.
import { onStatement } from "../../src/statement-log.js";
import type { GeneratingServer } from "./generating-server.js";
import { until } from "./until.js";

let ownEventReads = 0;
onStatement((sql) => {
  if (/e\."responseId" = \$\d/.test(sql)) ownEventReads++;
});

export async function keptTurn(g: GeneratingServer, input: string, previousResponseId?: string) {
  const reads = ownEventReads;
  const response = await g.openai.responses.create({
    model: "stand-in-1",
    input,
    previous_response_id: previousResponseId,
  });
  await until(() => ownEventReads >= reads + 1, "the turn's context to be kept");
  return response;
}
