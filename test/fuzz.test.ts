// A few thousand random and malformed operations, sent to a real server over HTTP: wrong types,
// huge strings, text PostgreSQL cannot store, deep nesting, bad ids, bodies that are not JSON.
// None may crash the server or surface as an unexpected error, and afterwards the stored data must
// still be consistent: every dialog's seqs gap-free from 1 to lastSeq, every response's chain intact.
import { describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { writer } from "./support/dialogs.js";
import { type FuzzRequest, fuzzCases, seededRandom } from "./support/fuzz.js";
import { httpExecutor, startTestServer } from "./support/live.js";

const OPERATIONS = Number(process.env.FUZZ_OPERATIONS ?? 3000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const CONCURRENCY = 8;

describe(`fuzz: ${OPERATIONS} random and malformed operations (seed ${SEED})`, () => {
  it("leave the server up, answered with expected errors only, and the data consistent", async () => {
    const server = await startTestServer();
    const write = writer(httpExecutor(server));
    const known = { dialogs: [] as string[], responses: [] as string[] };
    for (let i = 0; i < 4; i++) {
      const done = await write.createResponse({
        input: [{ human: { content: `q${i}` } }],
        output: [{ ai: { content: "a" } }],
      });
      const open = await write.createResponse({ dialogId: done.dialog.id, input: [{ human: { content: "more" } }] });
      known.dialogs.push(done.dialog.id);
      known.responses.push(done.id, open.id);
    }

    const responsesBefore = await prisma.response.count();
    const random = seededRandom(SEED);
    const next = fuzzCases(random, known);
    const cases: FuzzRequest[] = Array.from({ length: OPERATIONS }, next);
    const failures: string[] = [];
    let sent = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = sent++; i < cases.length; i = sent++) {
          const problem = await send(server.url, cases[i]!, known);
          if (problem) failures.push(`#${i} ${cases[i]!.label}: ${problem}`);
        }
      }),
    );
    expect(failures.slice(0, 20)).toEqual([]);

    // Some of the random writes were valid enough to be stored: the fuzz reached the write path.
    expect(await prisma.response.count()).toBeGreaterThan(responsesBefore);
    // Still up, still answering.
    expect(await httpExecutor(server)("{ __typename }")).toEqual({ __typename: "Query" });
    expect(await inconsistencies()).toEqual([]);
  });
});

/** Sends one case; returns what was wrong with the answer, if anything. */
async function send(base: string, request: FuzzRequest, known: { responses: string[] }): Promise<string | null> {
  let response: Response;
  try {
    response = await fetch(base + request.path, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    return `no answer (${(error as Error).message})`;
  }
  const text = await response.text();
  if (response.status >= 500) return `HTTP ${response.status}: ${text.slice(0, 300)}`;
  if (/INTERNAL_SERVER_ERROR|Unexpected error/.test(text)) return `unexpected error: ${text.slice(0, 300)}`;
  // Responses the fuzz created become targets of later cases (chains grow, branches appear).
  const created = /"createResponse":\{"__typename":"Response","id":"(resp_\w+)"/.exec(text);
  if (created) known.responses.push(created[1]!);
  return null;
}

/** Every rule the stored data must keep, as rows that break one (none expected). */
async function inconsistencies() {
  return prisma.$queryRaw<{ problem: string; id: string }[]>`
    SELECT 'seqs not 1..lastSeq' AS problem, d.id FROM "Dialog" d
      LEFT JOIN "Event" e ON e."dialogId" = d.id
      GROUP BY d.id, d."lastSeq"
      HAVING count(e.id) <> d."lastSeq" OR COALESCE(min(e.seq), 1) <> 1 OR COALESCE(max(e.seq), 0) <> d."lastSeq"
    UNION ALL
    SELECT 'chain broken', r.id FROM "Response" r LEFT JOIN "Response" p ON p.id = r."previousResponseId"
      WHERE (r."previousResponseId" IS NULL AND r.depth <> 0)
         OR (r."previousResponseId" IS NOT NULL AND (p.id IS NULL OR p."dialogId" <> r."dialogId" OR p.depth + 1 <> r.depth))
    UNION ALL
    SELECT 'head outside its dialog', d.id FROM "Dialog" d JOIN "Response" h ON h.id = d."headId"
      WHERE h."dialogId" <> d.id OR h.depth <> d."headDepth"
    UNION ALL
    SELECT 'event of another dialog''s response', e.id FROM "Event" e JOIN "Response" r ON r.id = e."responseId"
      WHERE r."dialogId" <> e."dialogId"`;
}
