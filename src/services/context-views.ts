// The context of a response as its readers want it: messages in a provider's format for the next
// model call (whole, or the newest part that fits a token budget), its token count, or a
// transcript for people. One SQL statement (readContext) whatever the depth; the conversion is
// done by the pure modules in src/formats.
import { ValidationError } from "../errors.js";
import { type ExportOptions, exportEvents, type MessageFormat } from "../formats/index.js";
import type { StoredEvent } from "../formats/stored-event.js";
import {
  budgetCost,
  type CountTokens,
  countEvents,
  type FittedContext,
  fitToBudget,
  loadTokenizer,
  type TokenizerName,
} from "../formats/token-budget.js";
import { renderTranscript, type TranscriptOptions } from "../formats/transcript.js";
import type { SqlRunner } from "../store/sql.js";
import { type ContextEvent, countContext, readContext, readContextPage, readModelContext } from "./context.js";

export interface BudgetOptions extends ExportOptions {
  /** Keep only the newest turns that fit this many tokens (system prompts always kept). */
  maxTokens?: number | null;
  tokenizer?: TokenizerName | null;
}

export const DEFAULT_TOKENIZER: TokenizerName = "O200K_BASE";

/** `responseId` null: a dialog with no response yet, whose context is empty. */
export async function exportMessages(
  db: SqlRunner,
  responseId: string | null,
  format: MessageFormat,
  options: BudgetOptions = {},
) {
  if (options.maxTokens != null) return (await fitMessages(db, responseId, format, options)).messages;
  return exportEvents(format, responseId ? await readContext(responseId, null, db) : [], options);
}

/** The export with what the budget left out: `maxTokens` absent keeps everything. */
export async function fitMessages(
  db: SqlRunner,
  responseId: string | null,
  format: MessageFormat,
  options: BudgetOptions = {},
) {
  const { maxTokens } = options;
  if (maxTokens != null && (!Number.isInteger(maxTokens) || maxTokens < 1)) {
    throw ValidationError.at(["maxTokens"], "must be a positive number of tokens");
  }
  const count = await loadTokenizer(options.tokenizer ?? DEFAULT_TOKENIZER);
  // Reasoning an export leaves out costs nothing (chat leaves it out unless asked).
  const reasoning = options.includeReasoning ?? format !== "OPENAI_CHAT";
  let fitted: FittedContext;
  if (maxTokens == null) {
    const events = responseId ? await readContext(responseId, null, db) : [];
    fitted = {
      events,
      tokenCount: countEvents(events, count, { reasoning }),
      droppedEventCount: 0,
      droppedThroughSeq: null,
    };
  } else {
    fitted = responseId
      ? await fitNewest(db, responseId, maxTokens, count, reasoning)
      : fitToBudget([], maxTokens, count);
  }
  return { ...fitted, messages: exportEvents(format, fitted.events, options) };
}

const PAGE = 500;

/**
 * The budget decides from the newest events back, so only as many are read as it can hold: pages
 * newest first until they cost more than the budget (or the context ends), plus every system
 * prompt. A 100,000-event context fitted to 8,000 tokens reads a few hundred rows, not 100,000.
 */
async function fitNewest(db: SqlRunner, responseId: string, maxTokens: number, count: CountTokens, reasoning: boolean) {
  const tokens = new Map<StoredEvent, number>(); // each event tokenized once per request
  const cost = (event: StoredEvent) => {
    let n = tokens.get(event);
    if (n === undefined) tokens.set(event, (n = budgetCost(count, { reasoning })(event)));
    return n;
  };
  const systems = await readContext(responseId, ["SYSTEM"], db);
  let room = maxTokens - systems.reduce((sum, event) => sum + cost(event), 0);
  const newestFirst: ContextEvent[] = [];
  for (;;) {
    const oldest = newestFirst.at(-1);
    const page = await readContextPage(responseId, { limit: PAGE, inverted: true, before: oldest ?? null }, db);
    newestFirst.push(...page);
    for (const event of page) if (event.type !== "SYSTEM") room -= cost(event);
    if (room < 0 || page.length < PAGE) break;
  }
  const read = newestFirst.reverse();
  const olderSystems = systems.filter((event) => !read.length || isBefore(event, read[0]!));
  const fitted = fitToBudget([...olderSystems, ...read], maxTokens, count, { reasoning, cost });
  const total = (await countContext(responseId, null, db)).all;
  return { ...fitted, droppedEventCount: total - fitted.events.length };
}

const isBefore = (a: ContextEvent, b: ContextEvent) => a.depth < b.depth || (a.depth === b.depth && a.seq < b.seq);

/** The tokens of the whole context, counted as token budgets count them. */
export async function tokenCountOf(
  db: SqlRunner,
  responseId: string | null,
  tokenizer: TokenizerName = DEFAULT_TOKENIZER,
) {
  // Only what a model is given counts, so only those columns are read.
  return countEvents(responseId ? await readModelContext(responseId, db) : [], await loadTokenizer(tokenizer));
}

export async function transcriptOf(db: SqlRunner, responseId: string | null, options: TranscriptOptions = {}) {
  const max = options.maxContentLength;
  if (max != null && (!Number.isInteger(max) || max < 1)) {
    throw ValidationError.at(["maxContentLength"], "must be a positive number of characters");
  }
  return renderTranscript(responseId ? await readContext(responseId, null, db) : [], options);
}
