// schema.graphql is the checked-in contract (codegen and outside tests read it). It must match
// what the code builds: run `npm run schema:print` after changing the schema on purpose.
import { readFileSync } from "node:fs";
import { printSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "../src/schema/index.js";

describe("schema.graphql", () => {
  it("is exactly the schema the code builds", () => {
    const checkedIn = readFileSync(new URL("../schema.graphql", import.meta.url), "utf8");
    expect(`${printSchema(schema)}\n`).toBe(checkedIn);
  });

  it("keeps the contract's names", () => {
    const printed = printSchema(schema);
    for (const name of [
      "union HistoryEvent = AiEvent | HumanEvent | ReasoningEvent | SystemEvent | ToolCallEvent | ToolResultEvent",
      "input HistoryEventInput @oneOf",
      "interface Error",
      "enum HistoryEventType",
      "dialog(id: ID!): Dialog",
      "response(id: ID!): Response",
    ]) {
      expect(printed).toContain(name);
    }
  });
});
