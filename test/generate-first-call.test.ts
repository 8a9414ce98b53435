// A generated turn's first model call is sent while its opening write commits
// (src/generation/first-call.ts): the upstream has the request before the write has committed,
// yet nothing of the turn reaches the client (or the database) until it has; a write that fails
// aborts the call, answers as before and leaves nothing stored.
import { describe, expect, it } from "vitest";
import { database } from "./support/database.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { keptTurn as turn } from "./support/kept-turn.js";
import { ownPoolPerFile } from "./support/own-pool.js";
import { until } from "./support/until.js";

/** POST /v1/responses, streamed, continuing `previous`; `answered` turns true once the client has the answer's head. */
function streamedTurn(g: GeneratingServer, previous: string) {
  const state = { answered: false };
  const answer = fetch(`${g.server.url}/v1/responses`, {
    method: "POST",
    headers: { authorization: `Bearer ${g.key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "stand-in-1", input: "Go on", previous_response_id: previous, stream: true }),
  }).then((response) => {
    state.answered = true;
    return response;
  });
  return { state, answer };
}

const responsesOf = async (dialogId: string) =>
  (
    await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Response" WHERE "dialogId" = $1`, [dialogId])
  )[0]!.n;

describe("the first model call overlaps the opening write", () => {
  it("a parent deleted elsewhere: the call is discarded, the answer is the write's, nothing is stored", async () => {
    const g = await startGeneratingServer();
    const first = await turn(g, "One");
    const dialogId = await dialogOf(first.id);
    // Deleted by another instance: this one still keeps the context and knows the response as the tenant's.
    await database.query(`DELETE FROM "Dialog" WHERE id = $1`, [dialogId]);
    const gate = holdAnswer(g);
    const before = g.upstream.requests.length;
    const answer = await streamedTurn(g, first.id).answer;
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ error: { type: "invalid_request_error" } });
    // Made or not before the write failed, the call is not left running.
    await Promise.all(g.upstream.requests.slice(before).map((request) => request.closed));
    gate();
    expect(await responsesOf(dialogId)).toBe(0);
  });
});

/** Scripts an answer held after its first chunk (it must never reach the client); returns what lets it go on. */
function holdAnswer(g: GeneratingServer) {
  let gate!: () => void;
  g.upstream.script({
    output: [{ text: "Never sent." }],
    holdAfterFirstChunk: new Promise((r) => (gate = r)),
    holdAfterChunks: 0,
  });
  return () => gate();
}

async function dialogOf(responseId: string) {
  const [row] = await database.query<{ dialogId: string }>(`SELECT "dialogId" FROM "Response" WHERE id = $1`, [
    responseId,
  ]);
  return row!.dialogId;
}

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe.runIf(onPostgres)("the first model call while the dialog's lock is held (PostgreSQL)", () => {
  const patient = ownPoolPerFile("dialogql-first-call-patient", { DATABASE_LOCK_TIMEOUT_MS: "20000" });
  const hasty = ownPoolPerFile("dialogql-first-call-hasty", { DATABASE_LOCK_TIMEOUT_MS: "1000" });

  it("the upstream has the call before the write commits; the client and the database see nothing of the turn until it has", async () => {
    const g = await startGeneratingServer({}, "tenant-a", { store: patient.store });
    const first = await turn(g, "One");
    const dialogId = await dialogOf(first.id);
    g.upstream.script({ output: [{ text: "Answered once the write committed." }] });
    const before = g.upstream.requests.length;
    await patient.admin.query("BEGIN");
    await patient.admin.query(`SELECT id FROM "Dialog" WHERE id = $1 FOR UPDATE`, [dialogId]);
    let turnAnswer: ReturnType<typeof streamedTurn>;
    try {
      turnAnswer = streamedTurn(g, first.id);
      await until(async () => (await patient.waitingOnLock()) >= 1, "the opening write to wait for the lock");
      await until(() => g.upstream.requests.length > before, "the upstream call");
      // The upstream has answered whole, and still the client has nothing and the turn is not stored.
      await g.upstream.requests.at(-1)!.closed;
      expect(turnAnswer.state.answered).toBe(false);
      expect(await responsesOf(dialogId)).toBe(1);
    } finally {
      await patient.admin.query("COMMIT");
    }
    const answer = await turnAnswer.answer;
    expect(answer.status).toBe(200);
    const events = [...(await answer.text()).matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
    expect(events.slice(0, 2)).toEqual(["response.created", "response.in_progress"]);
    expect(events).toContain("response.output_text.delta");
    expect(events.at(-1)).toBe("response.completed");
    expect(g.upstream.requests.length).toBe(before + 1);
    // The call had the whole context: the kept one and the turn's input.
    expect(g.upstream.requests.at(-1)!.body.messages!.map((m) => m.content)).toEqual([
      "One",
      "Hello from the stand-in.",
      "Go on",
    ]);
    expect(await responsesOf(dialogId)).toBe(2);
  });

  it("a write that cannot have the lock in time aborts the call and stores nothing", async () => {
    const g = await startGeneratingServer({}, "tenant-a", { store: hasty.store });
    const first = await turn(g, "One");
    const dialogId = await dialogOf(first.id);
    const gate = holdAnswer(g);
    const before = g.upstream.requests.length;
    await hasty.admin.query("BEGIN");
    await hasty.admin.query(`SELECT id FROM "Dialog" WHERE id = $1 FOR UPDATE`, [dialogId]);
    try {
      const turnAnswer = streamedTurn(g, first.id);
      await until(() => g.upstream.requests.length > before, "the upstream call");
      const answer = await turnAnswer.answer;
      expect(answer.status).toBe(503);
      // The call made while the write waited is aborted by dialogql, not answered by the upstream.
      await g.upstream.requests.at(-1)!.closed;
    } finally {
      await hasty.admin.query("COMMIT");
      gate();
    }
    expect(g.upstream.requests.length).toBe(before + 1);
    expect(await responsesOf(dialogId)).toBe(1);
  });
});
