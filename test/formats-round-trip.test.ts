// The fixture corpus (test/fixtures): every OpenAI conversation imported through importMessages
// comes back unchanged from an export in the same format — parallel tool calls, tool errors,
// images, audio, files, reasoning, system and developer prompts, ids and status included.
import { describe, expect, it } from "vitest";
import { dialogMessages, type Format, importOk, loadFixtures, responseMessages } from "./support/formats.js";
import { executeOk } from "./support/graphql.js";

const formats: Format[] = ["OPENAI_CHAT", "OPENAI_RESPONSES"];
const otherFormat = (format: Format): Format => (format === "OPENAI_CHAT" ? "OPENAI_RESPONSES" : "OPENAI_CHAT");

async function eventTypes(dialogId: string) {
  const data = await executeOk(
    `query($id: ID!) { dialog(id: $id) { history(first: 1000) { edges { node { ... on BaseHistoryEvent { type } } } } } }`,
    { id: dialogId },
  );
  return data.dialog.history.edges.map((edge: any) => edge.node.type as string);
}

it("has a corpus of at least 15 transcripts", () => {
  expect(loadFixtures("OPENAI_CHAT").length + loadFixtures("OPENAI_RESPONSES").length).toBeGreaterThanOrEqual(15);
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
    "$name: the export in the other format is a valid import of it",
    async ({ messages }) => {
      const imported = await importOk({ format, messages });
      const other = otherFormat(format);
      const converted = await responseMessages(imported.id, other, true);
      const reimported = await importOk({ format: other, messages: converted });
      // The same steps, in the same order; reasoning without an OpenAI item id has no Responses form.
      const withoutReasoning = (types: string[]) =>
        other === "OPENAI_RESPONSES" ? types.filter((t) => t !== "REASONING") : types;
      expect(await eventTypes(reimported.dialogId)).toEqual(withoutReasoning(await eventTypes(imported.dialogId)));
    },
  );
});
