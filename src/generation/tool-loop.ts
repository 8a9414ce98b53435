// The steps of one turn: the model is called; when it calls MCP tools, dialogql runs them, writes
// each result, and calls the model again with them, until it answers, calls a function tool (the
// client runs those, so the turn ends), asks for an approval, or the turn is cancelled. Every step
// is committed (and so published) as it completes: the model's step with its tool calls, each
// tool's result, the answer (a history delta per step). Answers to earlier approval
// requests are acted on first: an approved call runs, a denied one is written as a call the user
// refused, which is what the model is told.
import type { LanguageModelUsage } from "ai";
import type { McpCallResult } from "../mcp/mcp-connection.js";
import { callEvent, DENIED_TEXT, type McpItem, mcpMetadataOf, resultEvent } from "../mcp/mcp-events.js";
import type { McpListing, McpToolbox } from "../mcp/mcp-toolbox.js";
import type { ModelOutcome } from "../tracing.js";
import type { HistoryEventInput } from "../vocabulary/events.js";
import type { Turn } from "./turn-request.js";
import { toModelMessages } from "./model-messages.js";
import { callAhead } from "./call-ahead.js";
import { DEFAULT_MAX_TOOL_CALLS, modelContext, openTurnToolbox, stepRequest } from "./model-call.js";
import { type PartReader, runModelStep, type StepRequest, type StepResult } from "./model-step.js";
import { type OutputItem, parseArguments, writtenText } from "./output-items.js";
import { addUsage, type TurnWriter, turnWriter } from "./turn-writer.js";
import { describeUpstreamFailure } from "./upstream-errors.js";

type CallItem = Extract<McpItem, { type: "mcp_call" }>;

export interface LoopResult {
  items: OutputItem[];
  finishReason: string | undefined;
  /** The stop sequence the last step stopped at, when its upstream says (Anthropic does). */
  stopSequence: string | null;
  usage: LanguageModelUsage | undefined;
  failure: unknown;
  /** Commits what the last step left unsaved (a cancelled step's text and calls). */
  finalSave(): Promise<void>;
  /** The answer left for the turn's end to commit (TurnWriter.answer). */
  answer(): HistoryEventInput | null;
}

export async function runToolLoop(turn: Turn): Promise<LoopResult> {
  const { request, begun, abort } = turn;
  const writer = turnWriter(turn);
  const { target, saveItems } = writer;
  const result: LoopResult = {
    items: writer.items,
    finishReason: undefined,
    stopSequence: null,
    usage: undefined,
    failure: undefined,
    finalSave: saveItems,
    answer: () => writer.answer,
  };
  let toolbox: McpToolbox | null = null;
  // Runs the call; its result is written ahead (the next model call may be sent while it commits),
  // and the item is done for the observer once it has committed.
  const runCall = async (item: CallItem) => {
    const server = toolbox?.server(item.serverLabel);
    const span = server && turn.trace?.toolCall({ ...item, serverUrl: server.serverUrl });
    const outcome: McpCallResult = server
      ? await toolbox!.call(server, item.name, parseArguments(item.arguments), abort)
      : missingServer(item.serverLabel);
    span?.end({ output: outcome.text, errorType: outcome.error?.type ?? null });
    item.output = outcome.error ? null : outcome.text;
    item.error = outcome.error;
    item.status = outcome.error ? "failed" : "completed";
    writer.writeAhead([resultEvent(item, outcome.text)], () => target.done(item));
  };
  try {
    const mcp = request.mcp;
    if (mcp && (mcp.servers.length || mcp.approvals.length)) {
      // Listed while the turn opened, when its first call was sent then (first-call.ts).
      const listed = turn.firstCall && (await turn.firstCall.prepared).toolbox;
      toolbox = listed || (await openTurnToolbox(turn, begun.context, abort));
      // Written ahead: the model's first step is read while they commit (its events reach the
      // client after them, and its writes are made after them).
      const fresh = toolbox!.listings.filter((listing) => listing.fresh);
      const listingItems = fresh.map((listing) => listingItem(listing, target.newId("mcp_list_tools")));
      for (const item of listingItems) target.add(item);
      if (listingItems.length) writer.saveItemsAhead(() => listingItems.forEach((item) => target.done(item)));
      await answerApprovals(turn, writer, runCall);
    }
    await modelSteps(turn, writer, toolbox, runCall, result);
  } catch (error) {
    result.failure = error;
  } finally {
    // A first call sent while the turn opened, and not read (the turn stopped before its first step), is aborted.
    turn.firstCall?.discard();
    // Results still committing are the turn's before its end: a failure among them is its failure.
    await writer.settle().catch((error: unknown) => (result.failure ??= error));
    await toolbox?.close();
  }
  return result;
}

/** Calls the model, runs its MCP calls, and again, until the turn ends (see the file's comment). */
async function modelSteps(
  turn: Turn,
  writer: TurnWriter,
  toolbox: McpToolbox | null,
  runCall: (item: CallItem) => Promise<void>,
  result: LoopResult,
) {
  const { target, produced } = writer;
  const { request, abort, firstCall } = turn;
  const context = firstCall ? (await firstCall.prepared).context : await modelContext(turn, turn.begun.context);
  const maxCalls = request.maxToolCalls ?? DEFAULT_MAX_TOOL_CALLS;
  let calls = 0;
  for (let steps = 0; steps <= maxCalls + 1 && !abort.aborted; steps++) {
    // The first call may be under way already, sent while the turn's opening write committed.
    const sent = steps === 0 ? firstCall : null;
    const messages = sent ? (await sent.prepared).messages : toModelMessages([...context, ...produced]);
    const span = turn.trace?.modelCall(() => messages);
    const itemsBefore = target.items.length;
    const request = stepRequest(turn, messages, toolbox, calls);
    const step = await runModelStep(request, target, sent?.take() ?? afterWritesAhead(writer, request));
    result.finishReason = step.finishReason;
    result.stopSequence = step.stopSequence;
    result.usage = addUsage(result.usage, step.usage);
    span?.end(stepOutcome(step, target.items.slice(itemsBefore), abort.aborted));
    if (step.failure !== undefined) {
      result.failure = step.failure;
      return;
    }
    const toRun = step.calls.filter((call): call is CallItem => call.type === "mcp_call");
    // No tool runs after a write ahead that failed (the listings'): the failure is the turn's.
    if (toRun.length) await writer.settle();
    for (const call of toRun) {
      if (abort.aborted) return;
      if (calls >= maxCalls) refuseCall(call, writer, maxCalls);
      else await runCall(call);
      calls++;
    }
    // Nothing ran, or the client has calls to run, or the user approvals to give: the turn ends.
    if (!toRun.length || toRun.length < step.calls.length) return;
  }
}

/**
 * With results still committing (written ahead), the next model call is sent now and followed
 * once they have committed; a failed write aborts it. After a write ahead that failed already, no
 * call is made (the failure is the step's). With none, the step makes its call itself.
 */
function afterWritesAhead(writer: TurnWriter, request: StepRequest): Promise<PartReader> | undefined {
  if (writer.failed) return writer.settle().then(() => Promise.reject(new Error("a write ahead failed")));
  if (!writer.pending) return undefined;
  const call = callAhead(request.abort, async (abort) => ({ ...request, abort }));
  return writer.settle().then(
    () => call.take(),
    (error: unknown) => {
      call.discard();
      throw error;
    },
  );
}

/** A model call's usage and end, for its span (the text it wrote is put there only when content is captured). */
function stepOutcome(step: StepResult, items: OutputItem[], aborted: boolean): ModelOutcome {
  const failed = step.failure !== undefined && !aborted;
  return {
    inputTokens: step.usage?.inputTokens,
    outputTokens: step.usage?.outputTokens,
    finishReason: step.finishReason ?? null,
    error: failed ? describeUpstreamFailure(step.failure).message : null,
    output: writtenText(items),
  };
}

/** Acts on the request's answers to approval requests in the context, in order. */
async function answerApprovals(turn: Turn, writer: TurnWriter, runCall: (item: CallItem) => Promise<void>) {
  const { target, write, saveItems } = writer;
  const { begun, request } = turn;
  const requests = begun.context.filter((event) => event.type === "TOOL_CALL" && event.callId?.startsWith("mcpr_"));
  const metadata = await turn.sink.eventMetadata(requests.flatMap((event) => (event.id ? [event.id] : [])));
  for (const answer of request.mcp?.approvals ?? []) {
    const asked = requests.find((event) => event.callId === answer.approvalRequestId);
    const mcp = asked?.id ? mcpMetadataOf(metadata.get(asked.id)) : null;
    if (!asked || mcp?.type !== "mcp_approval_request") continue;
    const answers = begun.context.filter((event) => event.type === "TOOL_RESULT" && event.callId === asked.callId);
    if (answers.length > 1) continue; // answered by an earlier turn already
    const args = (asked.args ?? {}) as Record<string, unknown>;
    const item: CallItem = {
      type: "mcp_call",
      id: target.newId("mcp_call"),
      callId: mcp.call_id ?? asked.callId!,
      serverLabel: mcp.server_label ?? "",
      name: asked.toolName ?? "",
      arguments: JSON.stringify(args),
      output: null,
      error: null,
      approvalRequestId: answer.approvalRequestId,
      status: "in_progress",
    };
    if (!answer.approve) {
      const denial = { ...item, error: { type: "mcp_tool_execution_error" as const, content: DENIED_TEXT } };
      await write([
        callEvent(item, args, true),
        resultEvent(denial, answer.reason ? `${DENIED_TEXT} ${answer.reason}` : DENIED_TEXT, true),
      ]);
      continue;
    }
    target.add(item);
    target.argumentsDone(item);
    await saveItems();
    // Not after a write ahead that failed (the listings'): the failure is the turn's.
    await writer.settle();
    await runCall(item);
  }
}

/** Past max_tool_calls a call is not run; the model is told so (written ahead, as a result is). */
function refuseCall(item: CallItem, writer: TurnWriter, maxCalls: number) {
  const text = `Not run: the response reached max_tool_calls (${maxCalls}).`;
  item.error = { type: "mcp_tool_execution_error", content: text };
  item.status = "failed";
  writer.writeAhead([resultEvent(item, text)], () => writer.target.done(item));
}

const missingServer = (label: string): McpCallResult => ({
  text: `The MCP server ${label} is not among this request's tools.`,
  error: {
    type: "mcp_protocol_error",
    code: -32602,
    message: `the MCP server ${label} is not among this request's tools`,
  },
});

function listingItem(listing: McpListing, id: string): McpItem {
  return {
    type: "mcp_list_tools",
    id,
    serverLabel: listing.server.serverLabel,
    tools: listing.tools,
    error: listing.error,
  };
}
