// The context of a response as its readers want it: OpenAI messages for the next model call, or
// a transcript for people. One SQL statement (readContext) whatever the depth; the conversion is
// done by the pure modules in src/formats.
import { ValidationError } from "../errors.js";
import { type ExportOptions, exportEvents, type MessageFormat } from "../formats/index.js";
import { renderTranscript, type TranscriptOptions } from "../formats/transcript.js";
import { readContext } from "./context.js";

/** `responseId` null: a dialog with no response yet, whose context is empty. */
export async function exportMessages(responseId: string | null, format: MessageFormat, options: ExportOptions = {}) {
  return exportEvents(format, responseId ? await readContext(responseId) : [], options);
}

export async function transcriptOf(responseId: string | null, options: TranscriptOptions = {}) {
  const max = options.maxContentLength;
  if (max != null && (!Number.isInteger(max) || max < 1)) {
    throw ValidationError.at(["maxContentLength"], "must be a positive number of characters");
  }
  return renderTranscript(responseId ? await readContext(responseId) : [], options);
}
