// The context of a response as its readers want it: messages in a provider's format for the next
// model call (whole, or the newest part that fits a token budget), its token count, or a
// transcript for people. One SQL statement (readContext) whatever the depth; the conversion is
// done by the pure modules in src/formats.
import { ValidationError } from "../errors.js";
import { type ExportOptions, exportEvents, type MessageFormat } from "../formats/index.js";
import { countEvents, fitToBudget, loadTokenizer, type TokenizerName } from "../formats/token-budget.js";
import { renderTranscript, type TranscriptOptions } from "../formats/transcript.js";
import { readContext } from "./context.js";

export interface BudgetOptions extends ExportOptions {
  /** Keep only the newest turns that fit this many tokens (system prompts always kept). */
  maxTokens?: number | null;
  tokenizer?: TokenizerName | null;
}

export const DEFAULT_TOKENIZER: TokenizerName = "O200K_BASE";

/** `responseId` null: a dialog with no response yet, whose context is empty. */
export async function exportMessages(responseId: string | null, format: MessageFormat, options: BudgetOptions = {}) {
  if (options.maxTokens != null) return (await fitMessages(responseId, format, options)).messages;
  return exportEvents(format, responseId ? await readContext(responseId) : [], options);
}

/** The export with what the budget left out: `maxTokens` absent keeps everything. */
export async function fitMessages(responseId: string | null, format: MessageFormat, options: BudgetOptions = {}) {
  const { maxTokens } = options;
  if (maxTokens != null && (!Number.isInteger(maxTokens) || maxTokens < 1)) {
    throw ValidationError.at(["maxTokens"], "must be a positive number of tokens");
  }
  const events = responseId ? await readContext(responseId) : [];
  const count = await loadTokenizer(options.tokenizer ?? DEFAULT_TOKENIZER);
  // Reasoning an export leaves out costs nothing (chat leaves it out unless asked).
  const reasoning = options.includeReasoning ?? format !== "OPENAI_CHAT";
  const fitted =
    maxTokens == null
      ? { events, tokenCount: countEvents(events, count, { reasoning }), droppedEventCount: 0, droppedThroughSeq: null }
      : fitToBudget(events, maxTokens, count, { reasoning });
  return { ...fitted, messages: exportEvents(format, fitted.events, options) };
}

/** The tokens of the whole context, counted as token budgets count them. */
export async function tokenCountOf(responseId: string | null, tokenizer: TokenizerName = DEFAULT_TOKENIZER) {
  return countEvents(responseId ? await readContext(responseId) : [], await loadTokenizer(tokenizer));
}

export async function transcriptOf(responseId: string | null, options: TranscriptOptions = {}) {
  const max = options.maxContentLength;
  if (max != null && (!Number.isInteger(max) || max < 1)) {
    throw ValidationError.at(["maxContentLength"], "must be a positive number of characters");
  }
  return renderTranscript(responseId ? await readContext(responseId) : [], options);
}
