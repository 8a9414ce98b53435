// A turn's tools, tool choice and structured output in the AI SDK's terms, from the request's.
import { jsonSchema, Output, type ToolSet, tool } from "ai";

export interface FunctionTool {
  name: string;
  description?: string | null;
  /** JSON Schema of the arguments. */
  parameters?: Record<string, unknown> | null;
  strict?: boolean | null;
}

export type ToolChoice = "auto" | "none" | "required" | { name: string };

export type ResponseFormat =
  | { type: "json_schema"; name: string; schema: Record<string, unknown>; description?: string | null }
  | { type: "json_object" };

/** Function tools without `execute`: the model's calls come back to the client, which runs them. */
export function toolSet(tools: FunctionTool[] | null | undefined): ToolSet | undefined {
  if (!tools?.length) return undefined;
  return Object.fromEntries(
    tools.map((spec) => [
      spec.name,
      tool({
        description: spec.description ?? undefined,
        // The Responses API's default for function tools is strict.
        strict: spec.strict ?? true,
        inputSchema: jsonSchema(
          (spec.parameters ?? { type: "object", properties: {} }) as Parameters<typeof jsonSchema>[0],
        ),
      }),
    ]),
  );
}

export function toolChoice(choice: ToolChoice | null | undefined) {
  if (!choice) return undefined;
  return typeof choice === "string" ? choice : { type: "tool" as const, toolName: choice.name };
}

/** The AI SDK's output specification for a response format (its providers send it as each API wants). */
export function outputOf(format: ResponseFormat | null | undefined) {
  if (!format) return undefined;
  if (format.type === "json_object") return Output.json();
  return Output.object({
    schema: jsonSchema(format.schema as Parameters<typeof jsonSchema>[0]),
    name: format.name,
    description: format.description ?? undefined,
  });
}
