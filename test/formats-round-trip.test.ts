// The fixture corpus (test/fixtures): every conversation imported through importMessages comes
// back unchanged from an export in the same format — parallel tool calls, tool errors, images,
// audio, files, documents, reasoning with its ids and signatures, system and developer prompts,
// message ids and part states included — and its export in each other format imports again.
import { describe, expect, it } from "vitest";
import { dialogMessages, type Format, formats, importOk, loadFixtures, responseMessages } from "./support/formats.js";
import { executeOk } from "./support/graphql.js";
import { graphql } from "../src/client/generated/index.js";

const DIALOG_HISTORY = graphql(`
  query FormatsRoundTripDialogHistory($id: ID!) {
    dialog(id: $id) {
      history(first: 1000) {
        edges {
          node {
            ... on BaseHistoryEvent {
              type
            }
          }
        }
      }
    }
  }
`);

async function eventTypes(dialogId: string) {
  const data = await executeOk(DIALOG_HISTORY, { id: dialogId });
  return data.dialog!.history.edges.map((edge) => edge.node.type as string);
}

/** The steps a conversion keeps, in the order it keeps them. */
function expectedAfter(types: string[], from: Format, to: Format) {
  // Reasoning replays only in its own provider's format (OpenAI item ids, Anthropic signatures).
  const keepsReasoning = to === "OPENAI_CHAT" || to === "AI_SDK_UI" || to === from;
  const kept = keepsReasoning ? types : types.filter((t) => t !== "REASONING");
  // A UIMessage holds each tool result inside its call's part: results move up next to their calls.
  // Both also give each text part its own step.
  if (to === "AI_SDK_UI" || from === "AI_SDK_UI") return collapseRuns([...kept].sort());
  // Anthropic has one top-level system prompt (leading system prompts join it) and one block per
  // text part (a message of several text parts becomes several AI steps).
  return to === "ANTHROPIC_MESSAGES" ? collapseRuns(kept) : kept;
}

const collapseRuns = (types: string[]) =>
  types.filter((type, i) => type !== types[i - 1] || (type !== "AI" && type !== "SYSTEM"));

it("has a corpus of at least 15 transcripts, and at least 5 per format", () => {
  expect(formats.reduce((sum, format) => sum + loadFixtures(format).length, 0)).toBeGreaterThanOrEqual(15);
  for (const format of formats) expect(loadFixtures(format).length).toBeGreaterThanOrEqual(5);
});

describe.each(formats)("%s fixtures", (format) => {
  it.each(loadFixtures(format))("$name: import then export gives the same JSON", async ({ messages }) => {
    const imported = await importOk({ format, messages });
    expect(await responseMessages(imported.id, format, true)).toEqual(messages);
    expect(await dialogMessages(imported.dialogId, format, { includeReasoning: true })).toEqual(messages);

    // What comes out goes back in: importing the export into a new dialog round-trips again.
    const again = await importOk({ format, messages: await responseMessages(imported.id, format, true) });
    expect(await responseMessages(again.id, format, true)).toEqual(messages);
  });

  it.each(loadFixtures(format))(
    "$name: the export in every other format is a valid import of it",
    async ({ messages }) => {
      const imported = await importOk({ format, messages });
      const types = await eventTypes(imported.dialogId);
      for (const other of formats.filter((f) => f !== format)) {
        const converted = await responseMessages(imported.id, other, true);
        const reimported = await importOk({ format: other, messages: converted });
        const sorted = other === "AI_SDK_UI" || format === "AI_SDK_UI";
        const got = await eventTypes(reimported.dialogId);
        const seen = sorted ? collapseRuns([...got].sort()) : other === "ANTHROPIC_MESSAGES" ? collapseRuns(got) : got;
        expect({ other, types: seen }).toEqual({ other, types: expectedAfter(types, format, other) });
      }
    },
  );
});
