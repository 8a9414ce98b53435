// Where a turn's steps go as they complete: its output items (the observer follows them) and the
// history events each is written as, through the turn's sink (src/generation/turn-sink.ts), so
// every step is committed and published on its own, so a watcher sees each one. What it has written is kept, as
// the next model call's messages are made from the context and it.
import type { LanguageModelUsage } from "ai";
import { NotInProgressError } from "../errors.js";
import type { StoredEvent } from "../formats/stored-event.js";
import { approvalRequestEvent, callEvent, listToolsEvents } from "../mcp/mcp-events.js";
import type { HistoryEventInput } from "../vocabulary/events.js";
import type { StepTarget } from "./model-step.js";
import { type OutputItem, outputItemId, parseArguments, toEventInput } from "./output-items.js";
import type { Turn } from "./turn-request.js";

export interface TurnWriter {
  items: OutputItem[];
  /** The events written so far, as the model's next step reads them. */
  produced: StoredEvent[];
  target: StepTarget;
  /** Writes events now (one committed write, one delta), after every write started before it. */
  write(events: HistoryEventInput[]): Promise<void>;
  /**
   * Writes events after every write started before, without waiting for them: the events count as
   * produced at once, so the next model call can be made from them while they commit
   * (call-ahead.ts); `committed` runs once they have (an observer's event about them goes there,
   * never before). After a failed write no later one is made (until `settle`).
   */
  writeAhead(events: HistoryEventInput[], committed: () => void): void;
  /**
   * Settles once every write started has committed; rejects with the first that failed, and the
   * writes after that (the turn's end saving what it can) are made again.
   */
  settle(): Promise<void>;
  /** Whether a write started has not settled yet. */
  readonly pending: boolean;
  /** Writes the items added since the last save. */
  saveItems(): Promise<void>;
}

/** A step of the turn the store refused: the turn stops, and it is not the upstream's failure. */
export class StorageFailure extends Error {
  constructor(override readonly cause: unknown) {
    super(`the turn's output could not be stored: ${(cause as Error)?.message ?? cause}`);
  }
}

export function turnWriter({ request, begun, observer, sink, endedElsewhere }: Turn): TurnWriter {
  const responseId = begun.responseId;
  const items: OutputItem[] = [];
  const produced: StoredEvent[] = [];
  // The tool calls committed so far: a result answering one needs no look-up by its write.
  const ownCalls = new Map<string, string>();
  let saved = 0;
  const commit = async (events: HistoryEventInput[]) => {
    await sink.append(begun, events, ownCalls).catch((error: unknown) => {
      // Ended by someone else meanwhile: the turn stops as cancelled; the end is theirs.
      if (error instanceof NotInProgressError) endedElsewhere();
      throw new StorageFailure(error);
    });
    for (const { toolCall } of events) if (toolCall?.callId) ownCalls.set(toolCall.callId, toolCall.toolName ?? "");
  };
  // The turn's writes, one after another in the order they were started.
  let tail: Promise<void> = Promise.resolve();
  let pending = 0;
  // A write ahead is not made after a failed one; an awaited write (the turn's end saving what it
  // can, with its retries) is made all the same, still after the writes started before it.
  const enqueue = (events: HistoryEventInput[], afterFailure: "skip" | "write") => {
    const previous = afterFailure === "write" ? tail.catch(() => undefined) : tail;
    const committed = previous.then(() => commit(events));
    tail = committed;
    pending++;
    committed.finally(() => pending--).catch(() => undefined);
    return committed;
  };
  const write = async (events: HistoryEventInput[]) => {
    await enqueue(events, "write");
    produced.push(...events.map(asStored));
  };
  const writeAhead = (events: HistoryEventInput[], committed: () => void) => {
    produced.push(...events.map(asStored));
    tail = enqueue(events, "skip").then(committed);
    // Its failure is read through settle, even after an awaited write made since (which does not
    // stop at it): kept here, and not an unhandled rejection meanwhile.
    tail.catch((error: unknown) => (aheadFailure ??= { error }));
  };
  let aheadFailure: { error: unknown } | null = null;
  const settle = async () => {
    const upTo = tail;
    try {
      await upTo;
    } catch (error) {
      aheadFailure ??= { error };
    }
    if (!aheadFailure) return;
    const { error } = aheadFailure;
    aheadFailure = null;
    if (tail === upTo) tail = Promise.resolve();
    throw error;
  };
  const saveItems = async () => {
    const upTo = items.length;
    await write(items.slice(saved).flatMap((item) => eventsOf(item, request.model)));
    // Only once stored: the end's retries store what a refused step could not.
    saved = upTo;
  };
  const at = (item: OutputItem) => items.indexOf(item);
  const target: StepTarget = {
    items,
    add: (item) => {
      items.push(item);
      observer.onItemAdded?.(item, items.length - 1);
    },
    newId: (type) => outputItemId(type, responseId, items.length),
    textDelta: (type, delta) => sink.textDelta(responseId, type, delta, endedElsewhere),
    delta: (item, delta, logprobs) => observer.onDelta?.(item, at(item), delta, logprobs),
    argumentsDone: (item) => observer.onArgumentsDone?.(item, at(item)),
    done: (item) => observer.onItemDone?.(item, at(item)),
    stepEnd: saveItems,
    saveItems,
  };
  return {
    items,
    produced,
    target,
    write,
    writeAhead,
    settle,
    get pending() {
      return pending > 0;
    },
    saveItems,
  };
}

/** The history events an item is written as when its step ends. */
function eventsOf(item: OutputItem, model: string): HistoryEventInput[] {
  switch (item.type) {
    case "mcp_list_tools":
      return listToolsEvents(item);
    case "mcp_call":
      return [callEvent(item, parseArguments(item.arguments))];
    case "mcp_approval_request":
      return [approvalRequestEvent(item, parseArguments(item.arguments))];
    default:
      return [toEventInput(item, model)];
  }
}

/** A written event as the model's next step reads it. */
function asStored(input: HistoryEventInput): StoredEvent {
  const blank = {
    content: null,
    parts: null,
    callId: null,
    toolName: null,
    args: null,
    isError: null,
    providerFields: null,
  };
  if (input.ai) return { ...blank, type: "AI", content: input.ai.content ?? null };
  if (input.reasoning) {
    const { content, providerFields } = input.reasoning;
    return { ...blank, type: "REASONING", content: content ?? null, providerFields: providerFields ?? null };
  }
  if (input.toolCall) {
    const { callId, toolName, args } = input.toolCall;
    return { ...blank, type: "TOOL_CALL", callId: callId ?? null, toolName: toolName ?? null, args: args ?? {} };
  }
  const result = input.toolResult!;
  return {
    ...blank,
    type: "TOOL_RESULT",
    callId: result.callId ?? null,
    toolName: result.toolName ?? null,
    content: result.content ?? null,
    isError: result.isError ?? false,
  };
}

export function addUsage(total: LanguageModelUsage | undefined, step: LanguageModelUsage | undefined) {
  if (!total || !step) return step ?? total;
  const sum = (a: number | undefined, b: number | undefined) =>
    a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
  return {
    ...step,
    inputTokens: sum(total.inputTokens, step.inputTokens),
    outputTokens: sum(total.outputTokens, step.outputTokens),
    reasoningTokens: sum(total.reasoningTokens, step.reasoningTokens),
    totalTokens: sum(total.totalTokens, step.totalTokens),
  };
}
