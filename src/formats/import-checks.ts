// Checks both importers share. Each reports into a list of field errors, so one ValidationError
// names every problem of an import, each at its path (["messages", "3", "content", "0"]).
import type { z } from "zod";
import { type FieldError, ValidationError } from "../errors.js";
import { isJsonObject } from "../vocabulary/json.js";
import { joinedText, type Part } from "../vocabulary/parts.js";

export type Problems = FieldError[];

/** The import's list of messages or items; anything else fails the whole import at once. */
export function requireList(value: unknown, path: string[], what: string): unknown[] {
  if (!Array.isArray(value)) throw ValidationError.at(path, `must be a list of ${what}`);
  if (!value.length) throw ValidationError.at(path, `at least one ${what.replace(/s$/, "")} is required`);
  return value;
}

export function zodProblems(issues: z.core.$ZodIssue[], path: string[], problems: Problems) {
  for (const issue of issues) problems.push({ path: [...path, ...issue.path.map(String)], message: issue.message });
}

/** Message content: a string, or a non-empty list of parts that each pass `partSchema`. */
export function readContent(
  value: unknown,
  path: string[],
  problems: Problems,
  partSchema: z.ZodType,
): { content: string | null; parts: Part[] | null } | null {
  if (typeof value === "string") return { content: value, parts: null };
  if (!Array.isArray(value) || !value.length) {
    problems.push({ path, message: "must be a string or a non-empty list of content parts" });
    return null;
  }
  const before = problems.length;
  value.forEach((part, index) => {
    const parsed = partSchema.safeParse(part);
    if (!parsed.success) zodProblems(parsed.error.issues, [...path, String(index)], problems);
  });
  return problems.length === before ? { content: null, parts: value as Part[] } : null;
}

/** A tool result's content: its text, plus the parts when it came as a list. */
export const toolResultContent = (read: { content: string | null; parts: Part[] | null }) => ({
  content: read.content ?? joinedText(read.parts ?? []),
  parts: read.parts,
});

export function requireString(value: unknown, path: string[], problems: Problems, what: string): string | null {
  if (typeof value === "string" && value.trim() !== "") return value;
  problems.push({ path, message: `${what} is required (a non-empty string)` });
  return null;
}

/** Tool call arguments: OpenAI sends them as a JSON string; they must decode to an object. */
export function parseArguments(value: unknown, path: string[], problems: Problems): Record<string, unknown> | null {
  const fail = () => void problems.push({ path, message: 'must be a JSON object encoded as a string, e.g. "{}"' });
  if (typeof value !== "string") return (fail(), null);
  try {
    const args: unknown = JSON.parse(value);
    if (isJsonObject(args)) return args;
  } catch {
    // reported below
  }
  return (fail(), null);
}

/** A call id may answer only one call in an import; tool results find their call by it. */
export function claimCallId(
  callId: string,
  name: string,
  calls: Map<string, string>,
  path: string[],
  problems: Problems,
) {
  if (calls.has(callId)) problems.push({ path, message: `duplicate tool call id ${callId}` });
  else calls.set(callId, name);
}
