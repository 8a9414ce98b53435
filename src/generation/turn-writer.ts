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
import { isTypedText } from "./turn-sink.js";

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
  /** Whether a write ahead failed and `settle` has not reported it yet. */
  readonly failed: boolean;
  /** Writes the items added since the last save. */
  saveItems(): Promise<void>;
  /**
   * Writes the items added since the last save ahead (as `writeAhead`), and holds the observer's
   * events that come after until they have committed (`committed` runs first): the turn may go on
   * reading the model while they commit, and the client still sees them done before anything else.
   * One at a time (a turn's listings).
   */
  saveItemsAhead(committed: () => void): void;
  /** The answer its step's end left for the turn's end to commit (TurnSink.commitsTextAtFinish); null: none. */
  readonly answer: HistoryEventInput | null;
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
  // The items committed so far (a write ahead counts them once it has committed).
  let saved = 0;
  const commit = async (events: HistoryEventInput[]) => {
    // Nothing typed or called since the last write: nothing to commit.
    if (!events.length) return;
    await sink.append(begun, events, ownCalls).catch((error: unknown) => {
      // Ended by someone else meanwhile: the turn stops as cancelled; the end is theirs.
      if (error instanceof NotInProgressError) endedElsewhere();
      throw new StorageFailure(error);
    });
    for (const { toolCall } of events) if (toolCall?.callId) ownCalls.set(toolCall.callId, toolCall.toolName ?? "");
  };
  const { write, writeAhead, settle, pending, failed, tail } = writeQueue(commit, produced);
  // The items not yet committed, when the write's turn comes: those of a write ahead that failed
  // are among them (the end's retries store what a refused step could not).
  const unsaved = (upTo: number) => items.slice(saved, upTo).flatMap((item) => eventsOf(item, request.model));
  const saveItems = async () => {
    let upTo = 0;
    await write(() => unsaved((upTo = items.length)));
    saved = Math.max(saved, upTo);
  };
  // The end of a step whose one item is typed text (the turn's answer: a step with no call ends
  // the turn) is not a write of its own when the sink's end commits it with the final status.
  let answer: HistoryEventInput | null = null;
  const stepEnd = async () => {
    const upTo = items.length;
    const events = unsaved(upTo);
    if (!sink.commitsTextAtFinish || events.length !== 1 || !isTypedText(events[0]!)) return saveItems();
    saved = Math.max(saved, upTo);
    produced.push(...events.map(asStored));
    answer = events[0]!;
  };
  const gate = observerGate();
  const observe = gate.observe;
  const saveItemsAhead = (committed: () => void) => {
    const upTo = items.length;
    gate.hold();
    writeAhead(unsaved(upTo), () => {
      saved = Math.max(saved, upTo);
      gate.release(committed);
    });
    // Failed: the turn's failure (settle), and what followed is still shown.
    tail().catch(() => gate.release());
  };
  const at = (item: OutputItem) => items.indexOf(item);
  const target: StepTarget = {
    items,
    add: (item) => {
      items.push(item);
      const index = items.length - 1;
      observe(() => observer.onItemAdded?.(item, index));
    },
    newId: (type) => outputItemId(type, responseId, items.length),
    textDelta: (type, delta) => sink.textDelta(responseId, type, delta, endedElsewhere),
    delta: (item, delta, logprobs) => observe(() => observer.onDelta?.(item, at(item), delta, logprobs)),
    argumentsDone: (item) => observe(() => observer.onArgumentsDone?.(item, at(item))),
    done: (item) => observe(() => observer.onItemDone?.(item, at(item))),
    stepEnd,
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
      return pending();
    },
    get failed() {
      return failed();
    },
    saveItems,
    saveItemsAhead,
    get answer() {
      return answer;
    },
  };
}

/**
 * The turn's writes, one after another in the order they were started (see TurnWriter); `produced`
 * gets their events as the next model step reads them.
 */
function writeQueue(commit: (events: HistoryEventInput[]) => Promise<void>, produced: StoredEvent[]) {
  let tail: Promise<void> = Promise.resolve();
  let pending = 0;
  // A write ahead is not made after a failed one; an awaited write (the turn's end saving what it
  // can, with its retries) is made all the same, still after the writes started before it.
  // `events` may be made when the write's turn comes, from what the writes before it left.
  const enqueue = (events: HistoryEventInput[] | (() => HistoryEventInput[]), afterFailure: "skip" | "write") => {
    const previous = afterFailure === "write" ? tail.catch(() => undefined) : tail;
    const committed = previous.then(() => commit(typeof events === "function" ? events() : events));
    tail = committed;
    pending++;
    committed.finally(() => pending--).catch(() => undefined);
    return committed;
  };
  const write = async (events: HistoryEventInput[] | (() => HistoryEventInput[])) => {
    let written: HistoryEventInput[] = [];
    await enqueue(() => (written = typeof events === "function" ? events() : events), "write");
    produced.push(...written.map(asStored));
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
  return {
    write,
    writeAhead,
    settle,
    pending: () => pending > 0,
    failed: () => aheadFailure !== null,
    tail: () => tail,
  };
}

/** The observer's events, held in order while a write ahead that holds them commits. One hold at a time. */
function observerGate() {
  let holding = false;
  const waiting: (() => void)[] = [];
  return {
    observe: (event: () => void) => (holding ? void waiting.push(event) : event()),
    hold: () => void (holding = true),
    /** `first` (the write's own events) goes before those that waited. */
    release(first?: () => void) {
      holding = false;
      first?.();
      for (const event of waiting.splice(0)) event();
    },
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
