/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type AppendEventsInput = {
  /** Output events, in order. */
  events: Array<HistoryEventInput>;
  /** The dialog's last seq as the caller knows it; if another write came first, a ConflictError. */
  expectedSeq?: number | null | undefined;
  /** An IN_PROGRESS response. */
  responseId: string | number;
};

export type ApproveToolCallInput = {
  approvalRequestId: string | number;
  approve: boolean;
  /** Headers for the servers, by server label (they are not stored with the turn). */
  headers?: Record<string, unknown> | null | undefined;
  /** The model that continues (the asking response's when absent). */
  model?: string | null | undefined;
  reason?: string | null | undefined;
  /** The response that asked. */
  responseId: string | number;
};

/** Which chat app wrote an export. */
export type ChatExportFormat =
  /** ChatGPT's data export: conversations.json (its `mapping` trees become branches). */
  | 'CHATGPT'
  /** LibreChat's conversation export (JSON). */
  | 'LIBRECHAT'
  /** One conversation per line: `{"messages": [...]}` in Chat Completions' shape. */
  | 'OPENAI_JSONL'
  /** Open WebUI's chat export (JSON). */
  | 'OPEN_WEBUI';

export type ClearDialogInput = {
  id: string | number;
};

export type CompleteResponseInput = {
  /** What went wrong, for a FAILED response. */
  error?: unknown;
  responseId: string | number;
  /** The final status; COMPLETED by default. */
  status?: ResponseStatus | null | undefined;
  usage?: UsageInput | null | undefined;
};

export type CreateDialogInput = {
  /** A JSON object. */
  metadata?: unknown;
  title?: string | null | undefined;
};

export type CreateResponseInput = {
  /** Chain to this dialog's head. Inferred from previousResponseId when that is given. */
  dialogId?: string | number | null | undefined;
  error?: unknown;
  /** A new first turn of dialogId, beside the first one, instead of a turn after its head: a branch from the start (an edited first message, a regenerated first answer). Not with previousResponseId. */
  fromStart?: boolean | null | undefined;
  /** A retry with the same key and input returns the same response; the same key with another input is a ConflictError. */
  idempotencyKey?: string | null | undefined;
  input: Array<HistoryEventInput>;
  /** A JSON object. */
  metadata?: unknown;
  model?: string | null | undefined;
  /** When given, the response is stored complete (status defaults to COMPLETED); otherwise it starts IN_PROGRESS. */
  output?: Array<HistoryEventInput> | null | undefined;
  /** Chain to this response (a new branch if it already has children). */
  previousResponseId?: string | number | null | undefined;
  status?: ResponseStatus | null | undefined;
  usage?: UsageInput | null | undefined;
};

export type CreateShareLinkInput = {
  dialogId: string | number;
  /** When the link stops opening (default: never). */
  expiresAt?: string | null | undefined;
  /** Share only the branch ending at this response (default: the dialog's head, live). */
  responseId?: string | number | null | undefined;
};

export type DeleteDialogInput = {
  id: string | number;
};

export type DialogOrder =
  /** Newest first (the default). */
  | 'NEWEST'
  /** Oldest first. */
  | 'OLDEST'
  /** Last written to first. */
  | 'RECENTLY_UPDATED';

export type ForkDialogInput = {
  /** The new dialog's history is this response's context. */
  responseId: string | number;
  /** Default: the original dialog's title. */
  title?: string | null | undefined;
};

/** A function the model may call; its calls come back as ToolCallEvents for the client to run. */
export type FunctionToolInput = {
  description?: string | null | undefined;
  name: string;
  /** JSON Schema of the arguments. */
  parameters?: Record<string, unknown> | null | undefined;
};

export type GenerateResponseInput = {
  /** Continue this dialog's head (a new dialog when neither this nor previousResponseId is given). */
  dialogId?: string | number | null | undefined;
  /** A new first turn of dialogId, beside the first one, instead of a turn after its head: a branch from the start (an edited first message, a regenerated first answer). Not with previousResponseId. */
  fromStart?: boolean | null | undefined;
  /** What the model is given this turn. */
  input: Array<HistoryEventInput>;
  /** A system prompt for this turn only (not stored in the history). */
  instructions?: string | null | undefined;
  maxOutputTokens?: number | null | undefined;
  /** At most this many MCP calls in the turn. */
  maxToolCalls?: number | null | undefined;
  /** MCP servers dialogql calls within the turn. */
  mcpTools?: Array<McpToolInput> | null | undefined;
  model: string;
  /** Continue from this response: a new branch if it already has children. */
  previousResponseId?: string | number | null | undefined;
  temperature?: number | null | undefined;
  tools?: Array<FunctionToolInput> | null | undefined;
};

export type HistoryEventInput =
  {   ai: MessageEventInput; human?: never; reasoning?: never; system?: never; toolCall?: never; toolResult?: never; }
  |  { ai?: never;   human: MessageEventInput; reasoning?: never; system?: never; toolCall?: never; toolResult?: never; }
  |  { ai?: never; human?: never;   reasoning: ReasoningEventInput; system?: never; toolCall?: never; toolResult?: never; }
  |  { ai?: never; human?: never; reasoning?: never;   system: MessageEventInput; toolCall?: never; toolResult?: never; }
  |  { ai?: never; human?: never; reasoning?: never; system?: never;   toolCall: ToolCallEventInput; toolResult?: never; }
  |  { ai?: never; human?: never; reasoning?: never; system?: never; toolCall?: never;   toolResult: ToolResultEventInput; };

export type HistoryEventType =
  | 'AI'
  | 'HUMAN'
  | 'REASONING'
  | 'SYSTEM'
  | 'TOOL_CALL'
  | 'TOOL_RESULT';

export type ImportChatsInput = {
  /** The export file's text (or a slice of its conversations). */
  data: string;
  /** Only read and check: nothing is stored. */
  dryRun?: boolean | null | undefined;
  /** Recognised from the text when not given. */
  format?: ChatExportFormat | null | undefined;
  /** For a slice of a file: the index of its first conversation (or line) in the file, so problems name records as the file numbers them. */
  offset?: number | null | undefined;
};

export type ImportMessagesInput = {
  /** Continue this dialog's head. Inferred from previousResponseId when that is given. */
  dialogId?: string | number | null | undefined;
  format: MessageFormat;
  /** Chat messages (OPENAI_CHAT), Responses input items (OPENAI_RESPONSES), an Anthropic `{system, messages}` body or a list of its messages (ANTHROPIC_MESSAGES), UIMessages (AI_SDK_UI). */
  messages: unknown;
  /** Recorded on every response the import creates. */
  model?: string | null | undefined;
  /** Continue this response. With neither, a new dialog is created. */
  previousResponseId?: string | number | null | undefined;
};

/** What an interrupted response keeps of the answer it was writing. */
export type InterruptBehavior =
  /** Keep nothing; the response ends CANCELLED. */
  | 'DISCARD'
  /** Keep it with metadata {interrupted: true}; the response ends INCOMPLETE. */
  | 'SAVE_MARKED'
  /** Keep the partial text as an AI message; the response ends INCOMPLETE. */
  | 'SAVE_PARTIAL';

export type InterruptResponseInput = {
  behavior: InterruptBehavior;
  /** The answer so far. Without it, SAVE_PARTIAL and SAVE_MARKED keep the text streamed so far (streamText); it is required when nothing was streamed, unless behavior is DISCARD. */
  partialText?: string | null | undefined;
  responseId: string | number;
};

/** Which of a server's tools wait for the user's approval before they run. */
export type McpApprovalMode =
  /** Every tool. */
  | 'ALWAYS'
  /** No tool. */
  | 'NEVER';

/** An MCP server the model may call within the turn (OpenAI's `mcp` tool; docs/mcp.md). */
export type McpToolInput = {
  /** Only these tools are offered (all when absent). */
  allowedTools?: Array<string> | null | undefined;
  /** These tools ask; with either list, unnamed tools ask too. */
  alwaysRequireApproval?: Array<string> | null | undefined;
  /** Sent to the server (authorization); never stored. */
  headers?: Record<string, unknown> | null | undefined;
  /** These tools run without asking. */
  neverRequireApproval?: Array<string> | null | undefined;
  /** ALWAYS when absent and no tool is named in the lists below. */
  requireApproval?: McpApprovalMode | null | undefined;
  serverDescription?: string | null | undefined;
  serverLabel: string;
  /** Must be allowed by MCP_ALLOWED_SERVERS. */
  serverUrl: string;
};

/** A human, AI or system message: text `content`, OpenAI content `parts`, or both. */
export type MessageEventInput = {
  content?: string | null | undefined;
  /** When it happened, if not now. */
  createdAt?: string | null | undefined;
  /** A JSON object kept with the event. */
  metadata?: unknown;
  /** OpenAI chat content parts, e.g. {"type": "image_url", "image_url": {"url": "…"}}. */
  parts?: Array<unknown> | null | undefined;
};

export type MessageFormat =
  /** Vercel AI SDK `UIMessage`s as `useChat` keeps them (parts: text, reasoning, tool-*, file, …). */
  | 'AI_SDK_UI'
  /** An Anthropic Messages request body `{system, messages}` (content blocks: text, image, document, thinking, tool_use, tool_result, …). */
  | 'ANTHROPIC_MESSAGES'
  /** Chat Completions `messages` (system, user, assistant with tool_calls, tool). */
  | 'OPENAI_CHAT'
  /** Responses API `input` items (message, function_call, function_call_output, reasoning, …). */
  | 'OPENAI_RESPONSES';

export type ReasoningEventInput = {
  /** Required. */
  content?: string | null | undefined;
  /** When it happened, if not now. */
  createdAt?: string | null | undefined;
  /** A JSON object kept with the event. */
  metadata?: unknown;
  modelName?: string | null | undefined;
};

export type ResponseStatus =
  | 'CANCELLED'
  | 'COMPLETED'
  | 'FAILED'
  | 'INCOMPLETE'
  | 'IN_PROGRESS';

/** Narrows a search or a dialog list. Every given field must hold. */
export type SearchFilter = {
  /** Created at or after (search: the event; dialogs: the dialog). */
  createdAfter?: string | null | undefined;
  /** Created before. */
  createdBefore?: string | null | undefined;
  /** Only in this dialog. */
  dialogId?: string | number | null | undefined;
  /** The dialog's metadata has these top-level keys with these values. */
  metadata?: Record<string, unknown> | null | undefined;
  /** Written by a response of one of these models. */
  models?: Array<string> | null | undefined;
  /** Search: the event's response has one of these statuses. Dialogs: the head has. */
  statuses?: Array<ResponseStatus> | null | undefined;
  /** Events of these types (dialogs: having such an event). */
  types?: Array<HistoryEventType> | null | undefined;
};

export type StreamTextInput = {
  /** The text to append (at most MAX_TEXT_DELTA_CHARS characters). */
  delta: string;
  /** Where the delta starts in the event's text (UTF-16 code units): must be where the text ends, else a TextOffsetError. Omit it to append at the end. */
  offset?: number | null | undefined;
  /** An IN_PROGRESS response. */
  responseId: string | number;
  /** AI or REASONING. A delta of the other type than the open text commits that text first. */
  type: HistoryEventType;
};

/** How much of one in-flight text a resuming client has (the part and offset of the last TextDelta it applied, plus its length). */
export type TextOffsetInput = {
  /** How many characters (UTF-16 code units) of the text the client has. */
  offset: number;
  part: number;
  responseId: string | number;
};

/** An OpenAI encoding (gpt-tokenizer) to count tokens with; for other providers' models the count is an approximation. */
export type Tokenizer =
  /** GPT-4 and GPT-3.5 models. */
  | 'CL100K_BASE'
  /** GPT-4o, GPT-4.1, GPT-5 and o-series models (the default). */
  | 'O200K_BASE';

export type ToolApprovalStatus =
  | 'APPROVED'
  | 'DENIED'
  | 'PENDING';

export type ToolCallEventInput = {
  /** A JSON object of arguments. */
  args?: unknown;
  /** The call's id; generated when absent. */
  callId?: string | null | undefined;
  /** When it happened, if not now. */
  createdAt?: string | null | undefined;
  /** A JSON object kept with the event. */
  metadata?: unknown;
  /** Required. */
  toolName?: string | null | undefined;
};

export type ToolResultEventInput = {
  /** Required: the callId of a tool call in the context. */
  callId?: string | null | undefined;
  /** Required. */
  content?: string | null | undefined;
  /** When it happened, if not now. */
  createdAt?: string | null | undefined;
  isError?: boolean | null | undefined;
  /** A JSON object kept with the event. */
  metadata?: unknown;
  toolName?: string | null | undefined;
};

export type UpdateDialogInput = {
  id: string | number;
  /** Replaces the metadata object. */
  metadata?: unknown;
  /** A new title; null clears it, absent leaves it. */
  title?: string | null | undefined;
};

export type UsageInput = {
  /** Input tokens read from the provider's prompt cache (a part of inputTokens). */
  cachedTokens?: number | null | undefined;
  inputTokens?: number | null | undefined;
  outputTokens?: number | null | undefined;
  reasoningTokens?: number | null | undefined;
  totalTokens?: number | null | undefined;
};

type ContentPartFields_AudioPart_Fragment = { __typename: 'AudioPart', format: string };

type ContentPartFields_FilePart_Fragment = { __typename: 'FilePart', fileId: string | null, filename: string | null };

type ContentPartFields_ImageUrlPart_Fragment = { __typename: 'ImageUrlPart', url: string, detail: string | null };

type ContentPartFields_TextPart_Fragment = { __typename: 'TextPart', text: string };

export type ContentPartFieldsFragment =
  | ContentPartFields_AudioPart_Fragment
  | ContentPartFields_FilePart_Fragment
  | ContentPartFields_ImageUrlPart_Fragment
  | ContentPartFields_TextPart_Fragment
;

type HistoryEventFields_AiEvent_Fragment = { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
    | { __typename: 'AudioPart', format: string }
    | { __typename: 'FilePart', fileId: string | null, filename: string | null }
    | { __typename: 'ImageUrlPart', url: string, detail: string | null }
    | { __typename: 'TextPart', text: string }
  > | null };

type HistoryEventFields_HumanEvent_Fragment = { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
    | { __typename: 'AudioPart', format: string }
    | { __typename: 'FilePart', fileId: string | null, filename: string | null }
    | { __typename: 'ImageUrlPart', url: string, detail: string | null }
    | { __typename: 'TextPart', text: string }
  > | null };

type HistoryEventFields_ReasoningEvent_Fragment = { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } };

type HistoryEventFields_SystemEvent_Fragment = { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
    | { __typename: 'AudioPart', format: string }
    | { __typename: 'FilePart', fileId: string | null, filename: string | null }
    | { __typename: 'ImageUrlPart', url: string, detail: string | null }
    | { __typename: 'TextPart', text: string }
  > | null };

type HistoryEventFields_ToolCallEvent_Fragment = { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } };

type HistoryEventFields_ToolResultEvent_Fragment = { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } };

export type HistoryEventFieldsFragment =
  | HistoryEventFields_AiEvent_Fragment
  | HistoryEventFields_HumanEvent_Fragment
  | HistoryEventFields_ReasoningEvent_Fragment
  | HistoryEventFields_SystemEvent_Fragment
  | HistoryEventFields_ToolCallEvent_Fragment
  | HistoryEventFields_ToolResultEvent_Fragment
;

export type ResponseSummaryFragment = { id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null };

export type DialogSummaryFragment = { id: string, title: string | null, metadata: Record<string, unknown>, createdAt: string, updatedAt: string, lastSeq: number, head: { id: string, status: ResponseStatus, model: string | null } | null };

type WriteErrorFields_BudgetExceededError_Fragment = { __typename: 'BudgetExceededError', message: string, code: string };

type WriteErrorFields_ConflictError_Fragment = { __typename: 'ConflictError', message: string, code: string };

type WriteErrorFields_ForbiddenError_Fragment = { __typename: 'ForbiddenError', message: string, code: string };

type WriteErrorFields_ModelNotConfiguredError_Fragment = { __typename: 'ModelNotConfiguredError', message: string, code: string };

type WriteErrorFields_NotFoundError_Fragment = { __typename: 'NotFoundError', message: string, code: string };

type WriteErrorFields_TextOffsetError_Fragment = { __typename: 'TextOffsetError', message: string, code: string };

type WriteErrorFields_ValidationError_Fragment = { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> };

export type WriteErrorFieldsFragment =
  | WriteErrorFields_BudgetExceededError_Fragment
  | WriteErrorFields_ConflictError_Fragment
  | WriteErrorFields_ForbiddenError_Fragment
  | WriteErrorFields_ModelNotConfiguredError_Fragment
  | WriteErrorFields_NotFoundError_Fragment
  | WriteErrorFields_TextOffsetError_Fragment
  | WriteErrorFields_ValidationError_Fragment
;

export type CreateDialogMutationVariables = Exact<{
  input: CreateDialogInput;
}>;


export type CreateDialogMutation = { createDialog:
    | { __typename: 'ConflictError', message: string, code: string }
    | { __typename: 'Dialog', id: string, title: string | null, metadata: Record<string, unknown>, createdAt: string, updatedAt: string, lastSeq: number, head: { id: string, status: ResponseStatus, model: string | null } | null }
    | { __typename: 'NotFoundError', message: string, code: string }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type UpdateDialogMutationVariables = Exact<{
  input: UpdateDialogInput;
}>;


export type UpdateDialogMutation = { updateDialog:
    | { __typename: 'ConflictError', message: string, code: string }
    | { __typename: 'Dialog', id: string, title: string | null, metadata: Record<string, unknown>, createdAt: string, updatedAt: string, lastSeq: number, head: { id: string, status: ResponseStatus, model: string | null } | null }
    | { __typename: 'NotFoundError', message: string, code: string }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type ClearDialogMutationVariables = Exact<{
  input: ClearDialogInput;
}>;


export type ClearDialogMutation = { clearDialog:
    | { __typename: 'ConflictError', message: string, code: string }
    | { __typename: 'Dialog', id: string, title: string | null, metadata: Record<string, unknown>, createdAt: string, updatedAt: string, lastSeq: number, head: { id: string, status: ResponseStatus, model: string | null } | null }
    | { __typename: 'NotFoundError', message: string, code: string }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type DeleteDialogMutationVariables = Exact<{
  input: DeleteDialogInput;
}>;


export type DeleteDialogMutation = { deleteDialog:
    | { __typename: 'ConflictError', message: string, code: string }
    | { __typename: 'DeleteDialogPayload', id: string }
    | { __typename: 'NotFoundError', message: string, code: string }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type CreateResponseMutationVariables = Exact<{
  input: CreateResponseInput;
}>;


export type CreateResponseMutation = { createResponse:
    | { __typename: 'ConflictError', message: string, code: string }
    | { __typename: 'NotFoundError', message: string, code: string }
    | { __typename: 'Response', id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, dialog: { id: string }, input: Array<
        | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
            | { __typename: 'AudioPart', format: string }
            | { __typename: 'FilePart', fileId: string | null, filename: string | null }
            | { __typename: 'ImageUrlPart', url: string, detail: string | null }
            | { __typename: 'TextPart', text: string }
          > | null }
        | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
            | { __typename: 'AudioPart', format: string }
            | { __typename: 'FilePart', fileId: string | null, filename: string | null }
            | { __typename: 'ImageUrlPart', url: string, detail: string | null }
            | { __typename: 'TextPart', text: string }
          > | null }
        | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } }
        | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
            | { __typename: 'AudioPart', format: string }
            | { __typename: 'FilePart', fileId: string | null, filename: string | null }
            | { __typename: 'ImageUrlPart', url: string, detail: string | null }
            | { __typename: 'TextPart', text: string }
          > | null }
        | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } }
        | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } }
      >, output: Array<
        | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
            | { __typename: 'AudioPart', format: string }
            | { __typename: 'FilePart', fileId: string | null, filename: string | null }
            | { __typename: 'ImageUrlPart', url: string, detail: string | null }
            | { __typename: 'TextPart', text: string }
          > | null }
        | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
            | { __typename: 'AudioPart', format: string }
            | { __typename: 'FilePart', fileId: string | null, filename: string | null }
            | { __typename: 'ImageUrlPart', url: string, detail: string | null }
            | { __typename: 'TextPart', text: string }
          > | null }
        | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } }
        | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
            | { __typename: 'AudioPart', format: string }
            | { __typename: 'FilePart', fileId: string | null, filename: string | null }
            | { __typename: 'ImageUrlPart', url: string, detail: string | null }
            | { __typename: 'TextPart', text: string }
          > | null }
        | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } }
        | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } }
      >, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type AppendEventsMutationVariables = Exact<{
  input: AppendEventsInput;
}>;


export type AppendEventsMutation = { appendEvents:
    | { __typename: 'ConflictError', message: string, code: string }
    | { __typename: 'NotFoundError', message: string, code: string }
    | { __typename: 'Response', id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, output: Array<
        | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
            | { __typename: 'AudioPart', format: string }
            | { __typename: 'FilePart', fileId: string | null, filename: string | null }
            | { __typename: 'ImageUrlPart', url: string, detail: string | null }
            | { __typename: 'TextPart', text: string }
          > | null }
        | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
            | { __typename: 'AudioPart', format: string }
            | { __typename: 'FilePart', fileId: string | null, filename: string | null }
            | { __typename: 'ImageUrlPart', url: string, detail: string | null }
            | { __typename: 'TextPart', text: string }
          > | null }
        | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } }
        | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
            | { __typename: 'AudioPart', format: string }
            | { __typename: 'FilePart', fileId: string | null, filename: string | null }
            | { __typename: 'ImageUrlPart', url: string, detail: string | null }
            | { __typename: 'TextPart', text: string }
          > | null }
        | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } }
        | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } }
      >, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type CompleteResponseMutationVariables = Exact<{
  input: CompleteResponseInput;
}>;


export type CompleteResponseMutation = { completeResponse:
    | { __typename: 'ConflictError', message: string, code: string }
    | { __typename: 'NotFoundError', message: string, code: string }
    | { __typename: 'Response', id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type InterruptResponseMutationVariables = Exact<{
  input: InterruptResponseInput;
}>;


export type InterruptResponseMutation = { interruptResponse:
    | { __typename: 'ConflictError', message: string, code: string }
    | { __typename: 'NotFoundError', message: string, code: string }
    | { __typename: 'Response', id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, output: Array<
        | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
            | { __typename: 'AudioPart', format: string }
            | { __typename: 'FilePart', fileId: string | null, filename: string | null }
            | { __typename: 'ImageUrlPart', url: string, detail: string | null }
            | { __typename: 'TextPart', text: string }
          > | null }
        | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
            | { __typename: 'AudioPart', format: string }
            | { __typename: 'FilePart', fileId: string | null, filename: string | null }
            | { __typename: 'ImageUrlPart', url: string, detail: string | null }
            | { __typename: 'TextPart', text: string }
          > | null }
        | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } }
        | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
            | { __typename: 'AudioPart', format: string }
            | { __typename: 'FilePart', fileId: string | null, filename: string | null }
            | { __typename: 'ImageUrlPart', url: string, detail: string | null }
            | { __typename: 'TextPart', text: string }
          > | null }
        | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } }
        | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } }
      >, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type ImportMessagesMutationVariables = Exact<{
  input: ImportMessagesInput;
}>;


export type ImportMessagesMutation = { importMessages:
    | { __typename: 'ConflictError', message: string, code: string }
    | { __typename: 'NotFoundError', message: string, code: string }
    | { __typename: 'Response', id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, dialog: { id: string }, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type StreamTextMutationVariables = Exact<{
  input: StreamTextInput;
}>;


export type StreamTextMutation = { streamText:
    | { __typename: 'ConflictError', message: string, code: string }
    | { __typename: 'NotFoundError', message: string, code: string }
    | { __typename: 'TextOffsetError', expectedOffset: number, message: string, code: string }
    | { __typename: 'TextPosition', responseId: string, part: number, type: HistoryEventType, offset: number, length: number }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type CommitTextMutationVariables = Exact<{
  responseId: string | number;
}>;


export type CommitTextMutation = { commitText:
    | { __typename: 'ConflictError', message: string, code: string }
    | { __typename: 'NotFoundError', message: string, code: string }
    | { __typename: 'Response', id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type GenerateResponseMutationVariables = Exact<{
  input: GenerateResponseInput;
}>;


export type GenerateResponseMutation = { generateResponse:
    | { __typename: 'BudgetExceededError', code: string, message: string }
    | { __typename: 'ConflictError', code: string, message: string }
    | { __typename: 'ModelNotConfiguredError', code: string, message: string }
    | { __typename: 'NotFoundError', code: string, message: string }
    | { __typename: 'Response', id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, dialog: { id: string }, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null }
    | { __typename: 'ValidationError', code: string, message: string }
   };

export type DialogsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type DialogsQuery = { dialogs: { edges: Array<{ cursor: string, node: { id: string, title: string | null, metadata: Record<string, unknown>, createdAt: string, updatedAt: string, lastSeq: number, head: { id: string, status: ResponseStatus, model: string | null } | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type DialogQueryVariables = Exact<{
  id: string | number;
}>;


export type DialogQuery = { dialog: { id: string, title: string | null, metadata: Record<string, unknown>, createdAt: string, updatedAt: string, lastSeq: number, forkedFrom: { id: string } | null, branches: Array<{ id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null }>, head: { id: string, status: ResponseStatus, model: string | null } | null } | null };

export type DialogHistoryQueryVariables = Exact<{
  dialogId: string | number;
  responseId?: string | number | null | undefined;
  types?: Array<HistoryEventType> | HistoryEventType | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}>;


export type DialogHistoryQuery = { dialog: { id: string, history: { totalMessages: number, totalReasoning: number, totalToolCalls: number, pageInfo: { hasNextPage: boolean, endCursor: string | null, hasPreviousPage: boolean, startCursor: string | null }, edges: Array<{ node:
          | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null }, parts: Array<
              | { __typename: 'AudioPart', format: string }
              | { __typename: 'FilePart', fileId: string | null, filename: string | null }
              | { __typename: 'ImageUrlPart', url: string, detail: string | null }
              | { __typename: 'TextPart', text: string }
            > | null }
          | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null }, parts: Array<
              | { __typename: 'AudioPart', format: string }
              | { __typename: 'FilePart', fileId: string | null, filename: string | null }
              | { __typename: 'ImageUrlPart', url: string, detail: string | null }
              | { __typename: 'TextPart', text: string }
            > | null }
          | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null } }
          | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null }, parts: Array<
              | { __typename: 'AudioPart', format: string }
              | { __typename: 'FilePart', fileId: string | null, filename: string | null }
              | { __typename: 'ImageUrlPart', url: string, detail: string | null }
              | { __typename: 'TextPart', text: string }
            > | null }
          | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null } }
          | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null } }
         }> } } | null };

export type DialogLastSeqQueryVariables = Exact<{
  id: string | number;
}>;


export type DialogLastSeqQuery = { dialog: { id: string, lastSeq: number } | null };

export type DialogHeadQueryVariables = Exact<{
  id: string | number;
}>;


export type DialogHeadQuery = { dialog: { id: string, head: { id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null } | null } | null };

export type ResponseTipQueryVariables = Exact<{
  id: string | number;
}>;


export type ResponseTipQuery = { response: { id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, dialog: { id: string }, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null } | null };

export type DialogTreeQueryVariables = Exact<{
  id: string | number;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type DialogTreeQuery = { dialog: { id: string, responses: { edges: Array<{ node: { id: string, status: ResponseStatus, model: string | null, createdAt: string, preview: string | null, previousResponse: { id: string } | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } } | null };

export type ResponseQueryVariables = Exact<{
  id: string | number;
}>;


export type ResponseQuery = { response: { id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, dialog: { id: string }, children: Array<{ id: string }>, input: Array<
      | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
          | { __typename: 'AudioPart', format: string }
          | { __typename: 'FilePart', fileId: string | null, filename: string | null }
          | { __typename: 'ImageUrlPart', url: string, detail: string | null }
          | { __typename: 'TextPart', text: string }
        > | null }
      | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
          | { __typename: 'AudioPart', format: string }
          | { __typename: 'FilePart', fileId: string | null, filename: string | null }
          | { __typename: 'ImageUrlPart', url: string, detail: string | null }
          | { __typename: 'TextPart', text: string }
        > | null }
      | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } }
      | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
          | { __typename: 'AudioPart', format: string }
          | { __typename: 'FilePart', fileId: string | null, filename: string | null }
          | { __typename: 'ImageUrlPart', url: string, detail: string | null }
          | { __typename: 'TextPart', text: string }
        > | null }
      | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } }
      | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } }
    >, output: Array<
      | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
          | { __typename: 'AudioPart', format: string }
          | { __typename: 'FilePart', fileId: string | null, filename: string | null }
          | { __typename: 'ImageUrlPart', url: string, detail: string | null }
          | { __typename: 'TextPart', text: string }
        > | null }
      | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
          | { __typename: 'AudioPart', format: string }
          | { __typename: 'FilePart', fileId: string | null, filename: string | null }
          | { __typename: 'ImageUrlPart', url: string, detail: string | null }
          | { __typename: 'TextPart', text: string }
        > | null }
      | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } }
      | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
          | { __typename: 'AudioPart', format: string }
          | { __typename: 'FilePart', fileId: string | null, filename: string | null }
          | { __typename: 'ImageUrlPart', url: string, detail: string | null }
          | { __typename: 'TextPart', text: string }
        > | null }
      | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } }
      | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } }
    >, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null } | null };

export type ResponseContextQueryVariables = Exact<{
  id: string | number;
  types?: Array<HistoryEventType> | HistoryEventType | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ResponseContextQuery = { response: { id: string, context: { totalMessages: number, totalReasoning: number, totalToolCalls: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node:
          | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
              | { __typename: 'AudioPart', format: string }
              | { __typename: 'FilePart', fileId: string | null, filename: string | null }
              | { __typename: 'ImageUrlPart', url: string, detail: string | null }
              | { __typename: 'TextPart', text: string }
            > | null }
          | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
              | { __typename: 'AudioPart', format: string }
              | { __typename: 'FilePart', fileId: string | null, filename: string | null }
              | { __typename: 'ImageUrlPart', url: string, detail: string | null }
              | { __typename: 'TextPart', text: string }
            > | null }
          | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } }
          | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
              | { __typename: 'AudioPart', format: string }
              | { __typename: 'FilePart', fileId: string | null, filename: string | null }
              | { __typename: 'ImageUrlPart', url: string, detail: string | null }
              | { __typename: 'TextPart', text: string }
            > | null }
          | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } }
          | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } }
         }> } } | null };

export type ResponseMessagesQueryVariables = Exact<{
  responseId: string | number;
  format: MessageFormat;
  includeReasoning?: boolean | null | undefined;
  maxTokens?: number | null | undefined;
  tokenizer?: Tokenizer | null | undefined;
}>;


export type ResponseMessagesQuery = { response: { id: string, fittedMessages: { messages: unknown, tokenCount: number, droppedEventCount: number, droppedThroughSeq: number | null } } | null };

export type DialogMessagesQueryVariables = Exact<{
  dialogId: string | number;
  responseId?: string | number | null | undefined;
  format: MessageFormat;
  includeReasoning?: boolean | null | undefined;
  maxTokens?: number | null | undefined;
  tokenizer?: Tokenizer | null | undefined;
}>;


export type DialogMessagesQuery = { dialog: { id: string, messages: unknown, tokenCount: number } | null };

export type ModelsQueryVariables = Exact<{ [key: string]: never; }>;


export type ModelsQuery = { models: { configured: boolean, defaultModel: string | null } };

export type HistoryDeltaSubscriptionVariables = Exact<{
  dialogId: string | number;
  afterSeq?: number | null | undefined;
  textOffsets?: Array<TextOffsetInput> | TextOffsetInput | null | undefined;
}>;


export type HistoryDeltaSubscription = { historyDelta: { dialogId: string, cleared: boolean, responseDeleted: boolean, responseId: string | null, seq: number, previousSeq: number, status: ResponseStatus | null, endsTextPart: number | null, text: { responseId: string, part: number, type: HistoryEventType, offset: number, delta: string } | null, response: { id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null } | null, append: Array<
      | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
          | { __typename: 'AudioPart', format: string }
          | { __typename: 'FilePart', fileId: string | null, filename: string | null }
          | { __typename: 'ImageUrlPart', url: string, detail: string | null }
          | { __typename: 'TextPart', text: string }
        > | null }
      | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
          | { __typename: 'AudioPart', format: string }
          | { __typename: 'FilePart', fileId: string | null, filename: string | null }
          | { __typename: 'ImageUrlPart', url: string, detail: string | null }
          | { __typename: 'TextPart', text: string }
        > | null }
      | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } }
      | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
          | { __typename: 'AudioPart', format: string }
          | { __typename: 'FilePart', fileId: string | null, filename: string | null }
          | { __typename: 'ImageUrlPart', url: string, detail: string | null }
          | { __typename: 'TextPart', text: string }
        > | null }
      | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } }
      | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } }
    > } };

export type ResponseUpdatedSubscriptionVariables = Exact<{
  responseId: string | number;
}>;


export type ResponseUpdatedSubscription = { responseUpdated: { id: string, status: ResponseStatus, model: string | null, depth: number, createdAt: string, completedAt: string | null, error: unknown, metadata: Record<string, unknown>, output: Array<
      | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
          | { __typename: 'AudioPart', format: string }
          | { __typename: 'FilePart', fileId: string | null, filename: string | null }
          | { __typename: 'ImageUrlPart', url: string, detail: string | null }
          | { __typename: 'TextPart', text: string }
        > | null }
      | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
          | { __typename: 'AudioPart', format: string }
          | { __typename: 'FilePart', fileId: string | null, filename: string | null }
          | { __typename: 'ImageUrlPart', url: string, detail: string | null }
          | { __typename: 'TextPart', text: string }
        > | null }
      | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } }
      | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
          | { __typename: 'AudioPart', format: string }
          | { __typename: 'FilePart', fileId: string | null, filename: string | null }
          | { __typename: 'ImageUrlPart', url: string, detail: string | null }
          | { __typename: 'TextPart', text: string }
        > | null }
      | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } }
      | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } }
    >, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, previousResponse: { id: string } | null } };

type ApplyHistoryDeltaEvent_AiEvent_Fragment = { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string } };

type ApplyHistoryDeltaEvent_HumanEvent_Fragment = { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
    | { __typename: 'AudioPart' }
    | { __typename: 'FilePart' }
    | { __typename: 'ImageUrlPart' }
    | { __typename: 'TextPart' }
  > | null };

type ApplyHistoryDeltaEvent_ReasoningEvent_Fragment = { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } };

type ApplyHistoryDeltaEvent_SystemEvent_Fragment = { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string } };

type ApplyHistoryDeltaEvent_ToolCallEvent_Fragment = { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } };

type ApplyHistoryDeltaEvent_ToolResultEvent_Fragment = { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } };

export type ApplyHistoryDeltaEventFragment =
  | ApplyHistoryDeltaEvent_AiEvent_Fragment
  | ApplyHistoryDeltaEvent_HumanEvent_Fragment
  | ApplyHistoryDeltaEvent_ReasoningEvent_Fragment
  | ApplyHistoryDeltaEvent_SystemEvent_Fragment
  | ApplyHistoryDeltaEvent_ToolCallEvent_Fragment
  | ApplyHistoryDeltaEvent_ToolResultEvent_Fragment
;

export type ApplyHistoryDeltaStreamSubscriptionVariables = Exact<{
  dialogId: string | number;
  afterSeq?: number | null | undefined;
}>;


export type ApplyHistoryDeltaStreamSubscription = { historyDelta: { previousSeq: number, seq: number, status: ResponseStatus | null, append: Array<
      | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string } }
      | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
          | { __typename: 'AudioPart' }
          | { __typename: 'FilePart' }
          | { __typename: 'ImageUrlPart' }
          | { __typename: 'TextPart' }
        > | null }
      | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } }
      | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string } }
      | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } }
      | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } }
    > } };

export type ApplyHistoryDeltaDialogHistoryQueryVariables = Exact<{
  id: string | number;
}>;


export type ApplyHistoryDeltaDialogHistoryQuery = { dialog: { history: { edges: Array<{ node:
          | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string } }
          | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
              | { __typename: 'AudioPart' }
              | { __typename: 'FilePart' }
              | { __typename: 'ImageUrlPart' }
              | { __typename: 'TextPart' }
            > | null }
          | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } }
          | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string } }
          | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } }
          | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } }
         }> } } | null };

export type AuthenticationCreateDialogMutationVariables = Exact<{ [key: string]: never; }>;


export type AuthenticationCreateDialogMutation = { createDialog:
    | { id: string }
    | Record<PropertyKey, never>
   };

export type Authentication_TypenameQueryVariables = Exact<{ [key: string]: never; }>;


export type Authentication_TypenameQuery = { __typename: 'Query' };

export type AuthenticationCreateResponseMutationVariables = Exact<{ [key: string]: never; }>;


export type AuthenticationCreateResponseMutation = { createResponse:
    | { dialog: { id: string } }
    | Record<PropertyKey, never>
   };

export type BadInputDialogIdQueryVariables = Exact<{ [key: string]: never; }>;


export type BadInputDialogIdQuery = { dialog: { id: string } | null, response: { id: string } | null };

export type BadInputDialogHistoryQueryVariables = Exact<{
  d: string | number;
  r?: string | number | null | undefined;
}>;


export type BadInputDialogHistoryQuery = { dialog: { history: { totalMessages: number } } | null };

export type BadInputUMutationVariables = Exact<{ [key: string]: never; }>;


export type BadInputUMutation = { u:
    | { __typename: 'ConflictError', code: string, message: string }
    | { __typename: 'Dialog' }
    | { __typename: 'NotFoundError', code: string, message: string }
    | { __typename: 'ValidationError', code: string, message: string }
  , d:
    | { __typename: 'ConflictError', code: string, message: string }
    | { __typename: 'DeleteDialogPayload' }
    | { __typename: 'NotFoundError', code: string, message: string }
    | { __typename: 'ValidationError', code: string, message: string }
   };

export type BranchesResponseCommonAncestorQueryVariables = Exact<{
  id: string | number;
  w: string | number;
}>;


export type BranchesResponseCommonAncestorQuery = { response: { commonAncestor: { id: string } | null } | null };

export type BranchesResponseCommonAncestor2QueryVariables = Exact<{
  id: string | number;
}>;


export type BranchesResponseCommonAncestor2Query = { response: { commonAncestor: { id: string } | null } | null };

export type BranchesCompareBranchesCommonAncestorQueryVariables = Exact<{
  a: string | number;
  b: string | number;
}>;


export type BranchesCompareBranchesCommonAncestorQuery = { compareBranches: { commonAncestor: { id: string } | null, shared: { totalMessages: number, edges: Array<{ node:
          | { seq: number, type: HistoryEventType }
          | { seq: number, type: HistoryEventType }
          | { seq: number, type: HistoryEventType }
          | { seq: number, type: HistoryEventType }
          | { seq: number, type: HistoryEventType }
          | { seq: number, type: HistoryEventType }
         }> }, a: { preview: string | null, eventCount: number, tip: { id: string }, responses: Array<{ id: string }>, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null }, events: Array<
        | { __typename: 'AiEvent', seq: number, content: string }
        | { __typename: 'HumanEvent', seq: number, content: string }
        | { __typename: 'ReasoningEvent', seq: number }
        | { __typename: 'SystemEvent', seq: number }
        | { __typename: 'ToolCallEvent', seq: number, toolName: string }
        | { __typename: 'ToolResultEvent', seq: number, content: string }
      > }, b: { eventCount: number, tip: { id: string }, responses: Array<{ id: string }>, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null }, events: Array<
        | { __typename: 'AiEvent', seq: number, content: string }
        | { __typename: 'HumanEvent', seq: number, content: string }
        | { __typename: 'ReasoningEvent', seq: number }
        | { __typename: 'SystemEvent', seq: number }
        | { __typename: 'ToolCallEvent', seq: number }
        | { __typename: 'ToolResultEvent', seq: number }
      > } } };

export type ChainingDialogHeadQueryVariables = Exact<{
  id: string | number;
}>;


export type ChainingDialogHeadQuery = { dialog: { head: { id: string } | null, branches: Array<{ id: string }>, responses: { edges: Array<{ node: { id: string, depth: number, previousResponse: { id: string } | null, children: Array<{ id: string }> } }> }, history: { edges: Array<{ node:
          | { content: string }
          | { content: string }
          | Record<PropertyKey, never>
         }> } } | null };

export type ChainingResponseContextQueryVariables = Exact<{
  id: string | number;
}>;


export type ChainingResponseContextQuery = { response: { context: { totalMessages: number, edges: Array<{ node:
          | { content: string }
          | { content: string }
          | Record<PropertyKey, never>
         }> }, input: Array<
      | { __typename: 'AiEvent' }
      | { __typename: 'HumanEvent', content: string }
      | { __typename: 'ReasoningEvent' }
      | { __typename: 'SystemEvent' }
      | { __typename: 'ToolCallEvent' }
      | { __typename: 'ToolResultEvent' }
    >, output: Array<
      | { __typename: 'AiEvent', content: string }
      | { __typename: 'HumanEvent' }
      | { __typename: 'ReasoningEvent' }
      | { __typename: 'SystemEvent' }
      | { __typename: 'ToolCallEvent' }
      | { __typename: 'ToolResultEvent' }
    > } | null };

export type ChainingDialogHistoryQueryVariables = Exact<{
  id: string | number;
  r?: string | number | null | undefined;
}>;


export type ChainingDialogHistoryQuery = { dialog: { history: { edges: Array<{ node:
          | { content: string }
          | { content: string }
          | Record<PropertyKey, never>
         }> } } | null };

export type ChainingDialogsEdgesQueryVariables = Exact<{ [key: string]: never; }>;


export type ChainingDialogsEdgesQuery = { dialogs: { edges: Array<{ cursor: string, node: { id: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ChainingDialogsEdges2QueryVariables = Exact<{
  after?: string | null | undefined;
}>;


export type ChainingDialogsEdges2Query = { dialogs: { edges: Array<{ node: { id: string } }> } };

export type ChainingResponseCreatedAtQueryVariables = Exact<{
  id: string | number;
}>;


export type ChainingResponseCreatedAtQuery = { response: { createdAt: string, input: Array<
      | { createdAt: string, metadata: Record<string, unknown> }
      | { createdAt: string, metadata: Record<string, unknown> }
      | { createdAt: string, metadata: Record<string, unknown> }
      | { createdAt: string, metadata: Record<string, unknown> }
      | { createdAt: string, metadata: Record<string, unknown> }
      | { createdAt: string, metadata: Record<string, unknown> }
    >, output: Array<
      | { createdAt: string, metadata: Record<string, unknown> }
      | { createdAt: string, metadata: Record<string, unknown> }
      | { createdAt: string, metadata: Record<string, unknown> }
      | { createdAt: string, metadata: Record<string, unknown> }
      | { createdAt: string, metadata: Record<string, unknown> }
      | { createdAt: string, metadata: Record<string, unknown> }
    > } | null };

export type ChainingCreateDialogMutationVariables = Exact<{ [key: string]: never; }>;


export type ChainingCreateDialogMutation = { createDialog:
    | { __typename: 'ConflictError' }
    | { __typename: 'Dialog', id: string, title: string | null, metadata: Record<string, unknown>, head: { id: string } | null }
    | { __typename: 'NotFoundError' }
    | { __typename: 'ValidationError' }
   };

export type ChainingDialogHistory2QueryVariables = Exact<{
  id: string | number;
}>;


export type ChainingDialogHistory2Query = { dialog: { history: { totalMessages: number, edges: Array<{ cursor: string }> } } | null };

export type ChainingUpdateDialogMutationVariables = Exact<{
  id: string | number;
}>;


export type ChainingUpdateDialogMutation = { updateDialog:
    | { title: string | null, metadata: Record<string, unknown> }
    | Record<PropertyKey, never>
   };

export type ChainingDeleteDialogMutationVariables = Exact<{
  id: string | number;
}>;


export type ChainingDeleteDialogMutation = { deleteDialog:
    | { __typename: 'ConflictError' }
    | { __typename: 'DeleteDialogPayload', id: string }
    | { __typename: 'NotFoundError' }
    | { __typename: 'ValidationError' }
   };

export type ContextAddressingReadsQueryVariables = Exact<{
  dialog: string | number;
  tip: string | number;
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}>;


export type ContextAddressingReadsQuery = { dialog: { eventCount: number, toolCalls: number, lastEvent:
      | { id: string }
      | { id: string }
      | { id: string }
      | { id: string }
      | { id: string }
      | { id: string }
     | null, lastHuman:
      | { id: string }
      | { id: string }
      | { id: string }
      | { id: string }
      | { id: string }
      | { id: string }
     | null, history: { totalMessages: number, totalToolCalls: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, edges: Array<{ node:
          | { id: string }
          | { id: string }
          | { id: string }
          | { id: string }
          | { id: string }
          | { id: string }
         }> } } | null };

export type ContextAddressingCommonAncestorQueryVariables = Exact<{
  a: string | number;
  b: string | number;
}>;


export type ContextAddressingCommonAncestorQuery = { response: { commonAncestor: { id: string } | null } | null };

export type ContextAddressingAppendMutationVariables = Exact<{
  input: AppendEventsInput;
}>;


export type ContextAddressingAppendMutation = { appendEvents:
    | { __typename: 'ConflictError' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'Response' }
    | { __typename: 'ValidationError' }
   };

export type ContextAddressingForkMutationVariables = Exact<{
  input: ForkDialogInput;
}>;


export type ContextAddressingForkMutation = { forkDialog:
    | { id: string, head: { id: string } | null }
    | Record<PropertyKey, never>
   };

export type ContextAddressingPageQueryVariables = Exact<{
  id: string | number;
}>;


export type ContextAddressingPageQuery = { response: { context: { totalMessages: number, edges: Array<{ cursor: string }> } } | null };

export type DatabaseTimeWriteMutationVariables = Exact<{
  input: CreateResponseInput;
}>;


export type DatabaseTimeWriteMutation = { createResponse:
    | { __typename: 'ConflictError' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'Response', dialog: { id: string } }
    | { __typename: 'ValidationError' }
   };

export type DeepChainResponseContextQueryVariables = Exact<{
  id: string | number;
}>;


export type DeepChainResponseContextQuery = { response: { context: { totalMessages: number, totalReasoning: number, totalToolCalls: number, edges: Array<{ node:
          | { seq: number, response: { id: string, model: string | null } }
          | { seq: number, content: string, response: { id: string, model: string | null } }
          | { seq: number, response: { id: string, model: string | null } }
          | { seq: number, response: { id: string, model: string | null } }
          | { seq: number, response: { id: string, model: string | null } }
          | { seq: number, response: { id: string, model: string | null } }
         }> } } | null };

export type DeepChainDialogHistoryQueryVariables = Exact<{
  id: string | number;
}>;


export type DeepChainDialogHistoryQuery = { dialog: { history: { totalMessages: number, edges: Array<{ node:
          | { seq: number, content: string }
          | { seq: number }
          | { seq: number }
          | { seq: number }
          | { seq: number }
          | { seq: number }
         }> } } | null };

export type DialogOverviewQueryVariables = Exact<{
  id: string | number;
  r?: string | number | null | undefined;
  types?: Array<HistoryEventType> | HistoryEventType | null | undefined;
  max?: number | null | undefined;
}>;


export type DialogOverviewQuery = { dialog: { eventCount: number, transcript: string, lastEvent:
      | { __typename: 'AiEvent', seq: number, content: string }
      | { __typename: 'HumanEvent', seq: number, content: string }
      | { __typename: 'ReasoningEvent', seq: number }
      | { __typename: 'SystemEvent', seq: number }
      | { __typename: 'ToolCallEvent', seq: number }
      | { __typename: 'ToolResultEvent', seq: number }
     | null, history: { totalMessages: number, edges: Array<{ node:
          | { __typename: 'AiEvent' }
          | { __typename: 'HumanEvent' }
          | { __typename: 'ReasoningEvent' }
          | { __typename: 'SystemEvent' }
          | { __typename: 'ToolCallEvent' }
          | { __typename: 'ToolResultEvent' }
         }> } } | null };

export type TranscriptOfLength0QueryVariables = Exact<{
  id: string | number;
}>;


export type TranscriptOfLength0Query = { dialog: { transcript: string } | null };

export type FirstHumanEventMetadataQueryVariables = Exact<{
  id: string | number;
}>;


export type FirstHumanEventMetadataQuery = { dialog: { history: { edges: Array<{ node:
          | { metadata: Record<string, unknown>, createdAt: string }
          | Record<PropertyKey, never>
         }> } } | null };

export type CreateEmptyDialogMutationVariables = Exact<{ [key: string]: never; }>;


export type CreateEmptyDialogMutation = { createDialog:
    | { id: string }
    | Record<PropertyKey, never>
   };

export type ForkDialogForTestMutationVariables = Exact<{
  input: ForkDialogInput;
}>;


export type ForkDialogForTestMutation = { forkDialog:
    | { __typename: 'ConflictError', code: string, message: string }
    | { __typename: 'Dialog', id: string, title: string | null, lastSeq: number, forkedFrom: { id: string } | null, head: { id: string, depth: number } | null }
    | { __typename: 'NotFoundError', code: string, message: string }
    | { __typename: 'ValidationError', code: string, message: string }
   };

export type RenameDialogDeepMutationVariables = Exact<{
  id: string | number;
}>;


export type RenameDialogDeepMutation = { updateDialog:
    | { __typename: 'ConflictError' }
    | { __typename: 'Dialog' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'ValidationError' }
   };

export type ClearDialogForTestMutationVariables = Exact<{
  id: string | number;
}>;


export type ClearDialogForTestMutation = { clearDialog:
    | { __typename: 'ConflictError', code: string, message: string }
    | { __typename: 'Dialog', id: string, lastSeq: number, updatedAt: string, eventCount: number, head: { id: string } | null, history: { totalMessages: number }, branches: Array<{ id: string }> }
    | { __typename: 'NotFoundError', code: string, message: string }
    | { __typename: 'ValidationError', code: string, message: string }
   };

export type HumanEventsAfterClearQueryVariables = Exact<{
  id: string | number;
}>;


export type HumanEventsAfterClearQuery = { dialog: { lastSeq: number, history: { edges: Array<{ node:
          | { seq: number, content: string }
          | Record<PropertyKey, never>
         }> } } | null };

export type ForkProvenanceQueryVariables = Exact<{
  id: string | number;
}>;


export type ForkProvenanceQuery = { dialog: { eventCount: number, forkedFrom: { id: string } | null } | null };

export type FaultPostgresWriteMutationVariables = Exact<{
  input: CreateResponseInput;
}>;


export type FaultPostgresWriteMutation = { createResponse:
    | { __typename: 'ConflictError', code: string, message: string }
    | { __typename: 'NotFoundError', code: string, message: string }
    | { __typename: 'Response', id: string, dialog: { id: string } }
    | { __typename: 'ValidationError', code: string, message: string }
   };

export type FaultRedisStallWriteMutationVariables = Exact<{
  input: CreateResponseInput;
}>;


export type FaultRedisStallWriteMutation = { createResponse:
    | { __typename: 'ConflictError' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'Response', dialog: { id: string, lastSeq: number } }
    | { __typename: 'ValidationError' }
   };

export type FaultRedisStallTypenameQueryVariables = Exact<{ [key: string]: never; }>;


export type FaultRedisStallTypenameQuery = { __typename: 'Query' };

export type FormatsRoundTripDialogHistoryQueryVariables = Exact<{
  id: string | number;
}>;


export type FormatsRoundTripDialogHistoryQuery = { dialog: { history: { edges: Array<{ node:
          | { type: HistoryEventType }
          | { type: HistoryEventType }
          | { type: HistoryEventType }
          | { type: HistoryEventType }
          | { type: HistoryEventType }
          | { type: HistoryEventType }
         }> } } | null };

export type FuzzStillAnsweringQueryVariables = Exact<{ [key: string]: never; }>;


export type FuzzStillAnsweringQuery = { __typename: 'Query' };

export type GenerateResponseGenerateResponseMutationVariables = Exact<{
  input: GenerateResponseInput;
}>;


export type GenerateResponseGenerateResponseMutation = { generateResponse:
    | { __typename: 'BudgetExceededError', code: string, message: string }
    | { __typename: 'ConflictError', code: string, message: string }
    | { __typename: 'ModelNotConfiguredError', code: string, message: string }
    | { __typename: 'NotFoundError', code: string, message: string }
    | { __typename: 'Response', id: string, status: ResponseStatus, dialog: { id: string }, previousResponse: { id: string } | null }
    | { __typename: 'ValidationError', code: string, message: string }
   };

export type GenerateResponseResponseUpdatedStatusSubscriptionVariables = Exact<{
  responseId: string | number;
}>;


export type GenerateResponseResponseUpdatedStatusSubscription = { responseUpdated: { status: ResponseStatus, usage: { totalTokens: number | null } | null, output: Array<
      | { __typename: 'AiEvent', content: string }
      | { __typename: 'HumanEvent' }
      | { __typename: 'ReasoningEvent' }
      | { __typename: 'SystemEvent' }
      | { __typename: 'ToolCallEvent' }
      | { __typename: 'ToolResultEvent' }
    > } };

export type GenerateResponseResponseChildrenQueryVariables = Exact<{
  id: string | number;
}>;


export type GenerateResponseResponseChildrenQuery = { response: { children: Array<{ id: string }> } | null };

export type GenerateResponseModelsConfiguredQueryVariables = Exact<{ [key: string]: never; }>;


export type GenerateResponseModelsConfiguredQuery = { models: { configured: boolean, defaultModel: string | null } };

export type GenerateResponseModelsConfigured2QueryVariables = Exact<{ [key: string]: never; }>;


export type GenerateResponseModelsConfigured2Query = { models: { configured: boolean, defaultModel: string | null }, dialogs: { edges: Array<{ node: { id: string } }> } };

export type GracefulShutdownWriteMutationVariables = Exact<{
  input: CreateResponseInput;
}>;


export type GracefulShutdownWriteMutation = { createResponse:
    | { __typename: 'ConflictError', code: string, message: string }
    | { __typename: 'NotFoundError', code: string, message: string }
    | { __typename: 'Response', dialog: { id: string } }
    | { __typename: 'ValidationError', code: string, message: string }
   };

export type GraphiqlCreateResponseMutationVariables = Exact<{ [key: string]: never; }>;


export type GraphiqlCreateResponseMutation = { createResponse:
    | { dialog: { id: string } }
    | Record<PropertyKey, never>
   };

export type HistoryPaginationPageQueryVariables = Exact<{
  id: string | number;
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  types?: Array<HistoryEventType> | HistoryEventType | null | undefined;
}>;


export type HistoryPaginationPageQuery = { dialog: { history: { totalMessages: number, totalReasoning: number, totalToolCalls: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, edges: Array<{ cursor: string, node:
          | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, content: string }
          | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, content: string }
          | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, content: string, modelName: string | null }
          | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, content: string }
          | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, callId: string, toolName: string, args: Record<string, unknown> }
          | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, callId: string, toolName: string, content: string, isError: boolean }
         }> } } | null };

export type IdempotentRetryCreateResponseMutationVariables = Exact<{
  input: CreateResponseInput;
}>;


export type IdempotentRetryCreateResponseMutation = { createResponse:
    | { __typename: 'ConflictError', code: string, message: string }
    | { __typename: 'NotFoundError', code: string, message: string }
    | { __typename: 'Response', id: string }
    | { __typename: 'ValidationError', code: string, message: string }
   };

export type ImportChatsInTestMutationVariables = Exact<{
  input: ImportChatsInput;
}>;


export type ImportChatsInTestMutation = { importChats:
    | { __typename: 'ConflictError' }
    | { __typename: 'ImportChatsPayload', format: ChatExportFormat, conversations: number, imported: number, skipped: number, dialogs: Array<{ id: string, title: string | null, metadata: Record<string, unknown> }> }
    | { __typename: 'NotFoundError' }
    | { __typename: 'ValidationError', fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type ImportedDialogInTestQueryVariables = Exact<{
  id: string | number;
}>;


export type ImportedDialogInTestQuery = { dialog: { head: { id: string, model: string | null, status: ResponseStatus } | null, branches: Array<{ id: string }>, responses: { edges: Array<{ node: { id: string, model: string | null, previousResponse: { id: string } | null, input: Array<
            | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
                | { __typename: 'AudioPart', format: string }
                | { __typename: 'FilePart', fileId: string | null, filename: string | null }
                | { __typename: 'ImageUrlPart', url: string, detail: string | null }
                | { __typename: 'TextPart', text: string }
              > | null }
            | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
                | { __typename: 'AudioPart', format: string }
                | { __typename: 'FilePart', fileId: string | null, filename: string | null }
                | { __typename: 'ImageUrlPart', url: string, detail: string | null }
                | { __typename: 'TextPart', text: string }
              > | null }
            | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } }
            | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
                | { __typename: 'AudioPart', format: string }
                | { __typename: 'FilePart', fileId: string | null, filename: string | null }
                | { __typename: 'ImageUrlPart', url: string, detail: string | null }
                | { __typename: 'TextPart', text: string }
              > | null }
            | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } }
            | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } }
          >, output: Array<
            | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
                | { __typename: 'AudioPart', format: string }
                | { __typename: 'FilePart', fileId: string | null, filename: string | null }
                | { __typename: 'ImageUrlPart', url: string, detail: string | null }
                | { __typename: 'TextPart', text: string }
              > | null }
            | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
                | { __typename: 'AudioPart', format: string }
                | { __typename: 'FilePart', fileId: string | null, filename: string | null }
                | { __typename: 'ImageUrlPart', url: string, detail: string | null }
                | { __typename: 'TextPart', text: string }
              > | null }
            | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } }
            | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
                | { __typename: 'AudioPart', format: string }
                | { __typename: 'FilePart', fileId: string | null, filename: string | null }
                | { __typename: 'ImageUrlPart', url: string, detail: string | null }
                | { __typename: 'TextPart', text: string }
              > | null }
            | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } }
            | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } }
          > } }> }, history: { edges: Array<{ node:
          | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
              | { __typename: 'AudioPart', format: string }
              | { __typename: 'FilePart', fileId: string | null, filename: string | null }
              | { __typename: 'ImageUrlPart', url: string, detail: string | null }
              | { __typename: 'TextPart', text: string }
            > | null }
          | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
              | { __typename: 'AudioPart', format: string }
              | { __typename: 'FilePart', fileId: string | null, filename: string | null }
              | { __typename: 'ImageUrlPart', url: string, detail: string | null }
              | { __typename: 'TextPart', text: string }
            > | null }
          | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } }
          | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
              | { __typename: 'AudioPart', format: string }
              | { __typename: 'FilePart', fileId: string | null, filename: string | null }
              | { __typename: 'ImageUrlPart', url: string, detail: string | null }
              | { __typename: 'TextPart', text: string }
            > | null }
          | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } }
          | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } }
         }> } } | null };

export type ImportMessagesDialogLastSeqQueryVariables = Exact<{
  id: string | number;
}>;


export type ImportMessagesDialogLastSeqQuery = { dialog: { lastSeq: number, head: { id: string } | null, responses: { edges: Array<{ node: { id: string, status: ResponseStatus, model: string | null, depth: number, input: Array<
            | { __typename: 'AiEvent' }
            | { __typename: 'HumanEvent' }
            | { __typename: 'ReasoningEvent' }
            | { __typename: 'SystemEvent' }
            | { __typename: 'ToolCallEvent' }
            | { __typename: 'ToolResultEvent' }
          >, output: Array<
            | { __typename: 'AiEvent' }
            | { __typename: 'HumanEvent' }
            | { __typename: 'ReasoningEvent' }
            | { __typename: 'SystemEvent' }
            | { __typename: 'ToolCallEvent' }
            | { __typename: 'ToolResultEvent' }
          > } }> } } | null };

export type ImportMessagesDialogLastSeq2QueryVariables = Exact<{
  id: string | number;
}>;


export type ImportMessagesDialogLastSeq2Query = { dialog: { lastSeq: number, history: { edges: Array<{ node:
          | { seq: number }
          | { seq: number }
          | { seq: number }
          | { seq: number }
          | { seq: number }
          | { seq: number }
         }> } } | null };

export type ImportMessagesResponsePreviousResponseQueryVariables = Exact<{
  id: string | number;
}>;


export type ImportMessagesResponsePreviousResponseQuery = { response: { previousResponse: { id: string } | null, input: Array<
      | { content: string, parts: Array<
          | { __typename: 'AudioPart' }
          | { __typename: 'FilePart' }
          | { __typename: 'ImageUrlPart', url: string, detail: string | null }
          | { __typename: 'TextPart', text: string }
        > | null }
      | Record<PropertyKey, never>
    > } | null };

export type LiveClearHistoryDeltaClearedSubscriptionVariables = Exact<{
  dialogId: string | number;
  afterSeq?: number | null | undefined;
}>;


export type LiveClearHistoryDeltaClearedSubscription = { historyDelta: { cleared: boolean, responseId: string | null, seq: number, previousSeq: number, status: ResponseStatus | null, append: Array<
      | { seq: number }
      | { seq: number }
      | { seq: number }
      | { seq: number }
      | { seq: number }
      | { seq: number }
    > } };

export type LiveClearCreateResponseMutationVariables = Exact<{
  input: CreateResponseInput;
}>;


export type LiveClearCreateResponseMutation = { createResponse:
    | { id: string, dialog: { id: string } }
    | Record<PropertyKey, never>
   };

export type LiveClearClearDialogMutationVariables = Exact<{
  id: string | number;
}>;


export type LiveClearClearDialogMutation = { clearDialog:
    | { __typename: 'ConflictError' }
    | { __typename: 'Dialog' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'ValidationError' }
   };

export type LiveClearDeleteDialogMutationVariables = Exact<{
  id: string | number;
}>;


export type LiveClearDeleteDialogMutation = { deleteDialog:
    | { __typename: 'ConflictError' }
    | { __typename: 'DeleteDialogPayload' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'ValidationError' }
   };

export type LiveImportImportMessagesMutationVariables = Exact<{
  input: ImportMessagesInput;
}>;


export type LiveImportImportMessagesMutation = { importMessages:
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Response' }
    | { __typename: 'ValidationError', message: string }
   };

export type LiveInFlightTextCommitTextMutationVariables = Exact<{
  id: string | number;
}>;


export type LiveInFlightTextCommitTextMutation = { commitText:
    | { __typename: 'ConflictError' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'Response', status: ResponseStatus }
    | { __typename: 'ValidationError' }
   };

export type LiveInFlightTextClearDialogMutationVariables = Exact<{
  id: string | number;
}>;


export type LiveInFlightTextClearDialogMutation = { clearDialog:
    | { __typename: 'ConflictError' }
    | { __typename: 'Dialog' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'ValidationError' }
   };

export type LiveInFlightTextCreateResponseMutationVariables = Exact<{ [key: string]: never; }>;


export type LiveInFlightTextCreateResponseMutation = { createResponse:
    | { id: string }
    | Record<PropertyKey, never>
   };

export type LiveResumeCreateDialogMutationVariables = Exact<{ [key: string]: never; }>;


export type LiveResumeCreateDialogMutation = { createDialog:
    | { id: string }
    | Record<PropertyKey, never>
   };

export type LiveSharedDeliveryHistoryDeltaSeqSubscriptionVariables = Exact<{
  dialogId: string | number;
  afterSeq?: number | null | undefined;
}>;


export type LiveSharedDeliveryHistoryDeltaSeqSubscription = { historyDelta: { seq: number, previousSeq: number, append: Array<
      | { __typename: 'AiEvent', seq: number, content: string }
      | { __typename: 'HumanEvent', seq: number }
      | { __typename: 'ReasoningEvent', seq: number }
      | { __typename: 'SystemEvent', seq: number }
      | { __typename: 'ToolCallEvent', seq: number }
      | { __typename: 'ToolResultEvent', seq: number }
    > } };

export type LiveTextResumeTortureCommitTextMutationVariables = Exact<{
  id: string | number;
}>;


export type LiveTextResumeTortureCommitTextMutation = { commitText:
    | { __typename: 'ConflictError' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'Response' }
    | { __typename: 'ValidationError' }
   };

export type LiveTextResumeTortureCreateDialogMutationVariables = Exact<{ [key: string]: never; }>;


export type LiveTextResumeTortureCreateDialogMutation = { createDialog:
    | { id: string }
    | Record<PropertyKey, never>
   };

export type LiveTransportsResponseUpdatedIdSubscriptionVariables = Exact<{
  responseId: string | number;
}>;


export type LiveTransportsResponseUpdatedIdSubscription = { responseUpdated: { id: string, status: ResponseStatus, output: Array<
      | { __typename: 'AiEvent', content: string }
      | { __typename: 'HumanEvent' }
      | { __typename: 'ReasoningEvent' }
      | { __typename: 'SystemEvent' }
      | { __typename: 'ToolCallEvent' }
      | { __typename: 'ToolResultEvent' }
    > } };

export type OperationsCreateResponseMutationVariables = Exact<{ [key: string]: never; }>;


export type OperationsCreateResponseMutation = { createResponse:
    | { dialog: { id: string } }
    | Record<PropertyKey, never>
   };

export type OperationsCreateResponse2MutationVariables = Exact<{
  d: string | number;
}>;


export type OperationsCreateResponse2Mutation = { createResponse:
    | { __typename: 'ConflictError' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'Response' }
    | { __typename: 'ValidationError' }
   };

export type ResponsesApiStreamResponseUpdatedStatusSubscriptionVariables = Exact<{
  responseId: string | number;
}>;


export type ResponsesApiStreamResponseUpdatedStatusSubscription = { responseUpdated: { status: ResponseStatus } };

export type RetentionExpiryQueryVariables = Exact<{
  id: string | number;
}>;


export type RetentionExpiryQuery = { dialog: { updatedAt: string, expiresAt: string | null, head: { expiresAt: string | null } | null } | null };

export type RetentionRenameMutationVariables = Exact<{
  id: string | number;
  title?: string | null | undefined;
}>;


export type RetentionRenameMutation = { updateDialog:
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'Dialog' }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type RetentionForkMutationVariables = Exact<{
  r: string | number;
}>;


export type RetentionForkMutation = { forkDialog:
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'Dialog' }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type RetentionClearMutationVariables = Exact<{
  id: string | number;
}>;


export type RetentionClearMutation = { clearDialog:
    | { __typename: 'ConflictError' }
    | { __typename: 'Dialog' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'ValidationError' }
   };

export type ResponseOwnColumnsFragment = { id: string, depth: number, model: string | null, status: ResponseStatus, metadata: Record<string, unknown>, error: unknown, createdAt: string, completedAt: string | null, usage: { inputTokens: number | null, totalTokens: number | null } | null };

export type DialogOwnColumnsFragment = { id: string, title: string | null, metadata: Record<string, unknown>, createdAt: string, updatedAt: string };

export type ResponseOwnColumnsQueryVariables = Exact<{
  id: string | number;
}>;


export type ResponseOwnColumnsQuery = { response: { id: string, depth: number, model: string | null, status: ResponseStatus, metadata: Record<string, unknown>, error: unknown, createdAt: string, completedAt: string | null, usage: { inputTokens: number | null, totalTokens: number | null } | null } | null };

export type ResponseOwnColumnsAndDialogQueryVariables = Exact<{
  id: string | number;
}>;


export type ResponseOwnColumnsAndDialogQuery = { response: { id: string, depth: number, model: string | null, status: ResponseStatus, metadata: Record<string, unknown>, error: unknown, createdAt: string, completedAt: string | null, dialog: { id: string }, usage: { inputTokens: number | null, totalTokens: number | null } | null } | null };

export type DialogOwnColumnsQueryVariables = Exact<{
  id: string | number;
}>;


export type DialogOwnColumnsQuery = { dialog: { id: string, title: string | null, metadata: Record<string, unknown>, createdAt: string, updatedAt: string } | null };

export type DialogOwnColumnsAndHeadQueryVariables = Exact<{
  id: string | number;
}>;


export type DialogOwnColumnsAndHeadQuery = { dialog: { id: string, title: string | null, metadata: Record<string, unknown>, createdAt: string, updatedAt: string, head: { id: string } | null } | null };

export type RootLookupsCreateResponseMutationVariables = Exact<{
  input: CreateResponseInput;
}>;


export type RootLookupsCreateResponseMutation = { createResponse:
    | { id: string, dialog: { id: string } }
    | Record<PropertyKey, never>
   };

export type SearchHitsQueryVariables = Exact<{
  q: string;
  filter?: SearchFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type SearchHitsQuery = { search: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ cursor: string, node: { dialogId: string, responseId: string, seq: number, rank: number, snippet: string, snippetParts: Array<{ text: string, match: boolean }>, dialog: { id: string, title: string | null }, response: { id: string, model: string | null }, event:
          | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType }
          | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType }
          | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType }
          | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType }
          | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, toolName: string, args: Record<string, unknown> }
          | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, content: string }
         } }> } };

export type SearchUpdateDialogMutationVariables = Exact<{
  id: string | number;
}>;


export type SearchUpdateDialogMutation = { updateDialog:
    | { __typename: 'ConflictError' }
    | { __typename: 'Dialog' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'ValidationError' }
   };

export type FilteredDialogListQueryVariables = Exact<{
  filter?: SearchFilter | null | undefined;
  orderBy?: DialogOrder | null | undefined;
  first?: number | null | undefined;
}>;


export type FilteredDialogListQuery = { dialogs: { totalCount: number, edges: Array<{ node: { id: string, title: string | null, preview: string | null } }> } };

export type TenantWriteMutationVariables = Exact<{
  c: string;
}>;


export type TenantWriteMutation = { createResponse:
    | { __typename: 'ConflictError' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'Response' }
    | { __typename: 'ValidationError' }
   };

export type TenantSearchSnippetsQueryVariables = Exact<{
  q: string;
}>;


export type TenantSearchSnippetsQuery = { search: { totalCount: number, edges: Array<{ node: { snippet: string } }> } };

export type TenantDialogCountQueryVariables = Exact<{ [key: string]: never; }>;


export type TenantDialogCountQuery = { dialogs: { totalCount: number } };

export type Seed001HistoryQueryVariables = Exact<{
  id: string | number;
}>;


export type Seed001HistoryQuery = { dialog: { history: { totalMessages: number, totalReasoning: number, totalToolCalls: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, edges: Array<{ cursor: string, node:
          | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, content: string }
          | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, content: string }
          | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, content: string, modelName: string | null }
          | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, content: string }
          | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, callId: string, toolName: string, args: Record<string, unknown> }
          | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, callId: string, toolName: string, content: string, isError: boolean }
         }> } } | null };

export type ShareTestWriteMutationVariables = Exact<{
  input: CreateResponseInput;
}>;


export type ShareTestWriteMutation = { createResponse:
    | { __typename: 'ConflictError' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'Response', id: string, dialog: { id: string } }
    | { __typename: 'ValidationError' }
   };

export type ShareTestCreateMutationVariables = Exact<{
  input: CreateShareLinkInput;
}>;


export type ShareTestCreateMutation = { createShareLink:
    | { __typename: 'ConflictError', code: string, message: string }
    | { __typename: 'NotFoundError', code: string, message: string }
    | { __typename: 'ShareLink', token: string, path: string, responseId: string | null, live: boolean }
    | { __typename: 'ValidationError', code: string, message: string }
   };

export type ShareTestRevokeMutationVariables = Exact<{
  token: string;
}>;


export type ShareTestRevokeMutation = { revokeShareLink:
    | { __typename: 'ConflictError', code: string, message: string }
    | { __typename: 'NotFoundError', code: string, message: string }
    | { __typename: 'ShareLink', live: boolean }
    | { __typename: 'ValidationError', code: string, message: string }
   };

export type OutageHistoryDeltaSubscriptionVariables = Exact<{
  dialogId: string | number;
  afterSeq?: number | null | undefined;
}>;


export type OutageHistoryDeltaSubscription = { historyDelta: { seq: number, previousSeq: number } };

export type OutageWriteMutationVariables = Exact<{
  input: CreateResponseInput;
}>;


export type OutageWriteMutation = { createResponse:
    | { dialog: { id: string } }
    | Record<PropertyKey, never>
   };

export type WriteTurnMutationVariables = Exact<{
  input: CreateResponseInput;
}>;


export type WriteTurnMutation = { createResponse:
    | { __typename: 'ConflictError', message: string, code: string }
    | { __typename: 'NotFoundError', message: string, code: string }
    | { __typename: 'Response', id: string, status: ResponseStatus, depth: number, dialog: { id: string }, previousResponse: { id: string } | null }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type HistoryPageFieldsFragment = { totalMessages: number, totalReasoning: number, totalToolCalls: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, edges: Array<{ cursor: string, node:
      | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, content: string }
      | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, content: string }
      | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, content: string, modelName: string | null }
      | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, content: string }
      | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, callId: string, toolName: string, args: Record<string, unknown> }
      | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, callId: string, toolName: string, content: string, isError: boolean }
     }> };

export type WriterResponseFragment = { id: string, status: ResponseStatus, dialog: { id: string } };

type WriterError_BudgetExceededError_Fragment = { message: string, code: string };

type WriterError_ConflictError_Fragment = { message: string, code: string };

type WriterError_ForbiddenError_Fragment = { message: string, code: string };

type WriterError_ModelNotConfiguredError_Fragment = { message: string, code: string };

type WriterError_NotFoundError_Fragment = { message: string, code: string };

type WriterError_TextOffsetError_Fragment = { message: string, code: string };

type WriterError_ValidationError_Fragment = { message: string, code: string };

export type WriterErrorFragment =
  | WriterError_BudgetExceededError_Fragment
  | WriterError_ConflictError_Fragment
  | WriterError_ForbiddenError_Fragment
  | WriterError_ModelNotConfiguredError_Fragment
  | WriterError_NotFoundError_Fragment
  | WriterError_TextOffsetError_Fragment
  | WriterError_ValidationError_Fragment
;

export type WriterFieldErrorsFragment = { fieldErrors: Array<{ path: Array<string>, message: string }> };

export type WriterCreateResponseMutationVariables = Exact<{
  input: CreateResponseInput;
}>;


export type WriterCreateResponseMutation = { createResponse:
    | { __typename: 'ConflictError', message: string, code: string }
    | { __typename: 'NotFoundError', message: string, code: string }
    | { __typename: 'Response', id: string, status: ResponseStatus, dialog: { id: string } }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type WriterAppendEventsMutationVariables = Exact<{
  input: AppendEventsInput;
}>;


export type WriterAppendEventsMutation = { appendEvents:
    | { __typename: 'ConflictError', message: string, code: string }
    | { __typename: 'NotFoundError', message: string, code: string }
    | { __typename: 'Response', id: string, status: ResponseStatus, dialog: { id: string } }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type WriterCompleteResponseMutationVariables = Exact<{
  input: CompleteResponseInput;
}>;


export type WriterCompleteResponseMutation = { completeResponse:
    | { __typename: 'ConflictError', message: string, code: string }
    | { __typename: 'NotFoundError', message: string, code: string }
    | { __typename: 'Response', id: string, status: ResponseStatus, dialog: { id: string } }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type WriterInterruptResponseMutationVariables = Exact<{
  input: InterruptResponseInput;
}>;


export type WriterInterruptResponseMutation = { interruptResponse:
    | { __typename: 'ConflictError', message: string, code: string }
    | { __typename: 'NotFoundError', message: string, code: string }
    | { __typename: 'Response', id: string, status: ResponseStatus, dialog: { id: string } }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type HistoryOfDialogQueryVariables = Exact<{
  id: string | number;
}>;


export type HistoryOfDialogQuery = { dialog: { history: { edges: Array<{ node:
          | { __typename: 'AiEvent', id: string, seq: number, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string, model: string | null, status: ResponseStatus, metadata: Record<string, unknown>, usage: { inputTokens: number | null, outputTokens: number | null } | null } }
          | { __typename: 'HumanEvent', id: string, seq: number, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string, model: string | null, status: ResponseStatus, metadata: Record<string, unknown>, usage: { inputTokens: number | null, outputTokens: number | null } | null } }
          | { __typename: 'ReasoningEvent', id: string, seq: number, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string, model: string | null, status: ResponseStatus, metadata: Record<string, unknown>, usage: { inputTokens: number | null, outputTokens: number | null } | null } }
          | { __typename: 'SystemEvent', id: string, seq: number, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string, model: string | null, status: ResponseStatus, metadata: Record<string, unknown>, usage: { inputTokens: number | null, outputTokens: number | null } | null } }
          | { __typename: 'ToolCallEvent', id: string, seq: number, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string, model: string | null, status: ResponseStatus, metadata: Record<string, unknown>, usage: { inputTokens: number | null, outputTokens: number | null } | null } }
          | { __typename: 'ToolResultEvent', id: string, seq: number, createdAt: string, metadata: Record<string, unknown>, callId: string, content: string, response: { id: string, model: string | null, status: ResponseStatus, metadata: Record<string, unknown>, usage: { inputTokens: number | null, outputTokens: number | null } | null } }
         }> } } | null };

export type ImportMutationVariables = Exact<{
  input: ImportMessagesInput;
}>;


export type ImportMutation = { importMessages:
    | { __typename: 'ConflictError', code: string, message: string }
    | { __typename: 'NotFoundError', code: string, message: string }
    | { __typename: 'Response', id: string, status: ResponseStatus, depth: number, model: string | null, dialog: { id: string, lastSeq: number } }
    | { __typename: 'ValidationError', code: string, message: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type FormatsResponseMessagesQueryVariables = Exact<{
  id: string | number;
  format: MessageFormat;
  r?: boolean | null | undefined;
}>;


export type FormatsResponseMessagesQuery = { response: { messages: unknown } | null };

export type FormatsDialogMessagesQueryVariables = Exact<{
  id: string | number;
  format: MessageFormat;
  r?: boolean | null | undefined;
  responseId?: string | number | null | undefined;
}>;


export type FormatsDialogMessagesQuery = { dialog: { messages: unknown } | null };

export type LiveHistoryDeltaSubscriptionVariables = Exact<{
  dialogId: string | number;
  afterSeq?: number | null | undefined;
}>;


export type LiveHistoryDeltaSubscription = { historyDelta: { dialogId: string, responseId: string | null, seq: number, previousSeq: number, status: ResponseStatus | null, response: { id: string, status: ResponseStatus } | null, append: Array<
      | { __typename: 'AiEvent', id: string, seq: number, metadata: Record<string, unknown>, content: string }
      | { __typename: 'HumanEvent', id: string, seq: number, metadata: Record<string, unknown>, content: string }
      | { __typename: 'ReasoningEvent', id: string, seq: number, metadata: Record<string, unknown>, content: string }
      | { __typename: 'SystemEvent', id: string, seq: number, metadata: Record<string, unknown> }
      | { __typename: 'ToolCallEvent', id: string, seq: number, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown> }
      | { __typename: 'ToolResultEvent', id: string, seq: number, metadata: Record<string, unknown>, callId: string, content: string }
    > } };

export type ResumingHistoryDeltaSubscriptionVariables = Exact<{
  dialogId: string | number;
  afterSeq?: number | null | undefined;
}>;


export type ResumingHistoryDeltaSubscription = { historyDelta: { seq: number, previousSeq: number, append: Array<
      | { seq: number }
      | { seq: number }
      | { seq: number }
      | { seq: number }
      | { seq: number }
      | { seq: number }
    > } };

export type AgentStreamTextMutationVariables = Exact<{
  input: StreamTextInput;
}>;


export type AgentStreamTextMutation = { streamText:
    | { __typename: 'ConflictError', message: string, code: string }
    | { __typename: 'NotFoundError', message: string, code: string }
    | { __typename: 'TextOffsetError', message: string, code: string, expectedOffset: number, heldPart: number | null }
    | { __typename: 'TextPosition', responseId: string, part: number, type: HistoryEventType, offset: number, length: number }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type TextDeltasSubscriptionVariables = Exact<{
  dialogId: string | number;
  afterSeq?: number | null | undefined;
  textOffsets?: Array<TextOffsetInput> | TextOffsetInput | null | undefined;
}>;


export type TextDeltasSubscription = { historyDelta: { dialogId: string, responseId: string | null, seq: number, previousSeq: number, status: ResponseStatus | null, endsTextPart: number | null, cleared: boolean, responseDeleted: boolean, text: { responseId: string, part: number, type: HistoryEventType, offset: number, delta: string } | null, append: Array<
      | { __typename: 'AiEvent', id: string, seq: number, metadata: Record<string, unknown>, content: string, response: { id: string } }
      | { __typename: 'HumanEvent', id: string, seq: number, metadata: Record<string, unknown>, content: string, response: { id: string } }
      | { __typename: 'ReasoningEvent', id: string, seq: number, metadata: Record<string, unknown>, content: string, response: { id: string } }
      | { __typename: 'SystemEvent', id: string, seq: number, metadata: Record<string, unknown>, response: { id: string } }
      | { __typename: 'ToolCallEvent', id: string, seq: number, metadata: Record<string, unknown>, response: { id: string } }
      | { __typename: 'ToolResultEvent', id: string, seq: number, metadata: Record<string, unknown>, response: { id: string } }
    > } };

export type TenantIsolationCreateResponseMutationVariables = Exact<{ [key: string]: never; }>;


export type TenantIsolationCreateResponseMutation = { createResponse:
    | { id: string, dialog: { id: string, title: string | null } }
    | Record<PropertyKey, never>
   };

export type TenantIsolationCreateResponse2MutationVariables = Exact<{
  d: string | number;
}>;


export type TenantIsolationCreateResponse2Mutation = { createResponse:
    | { id: string }
    | Record<PropertyKey, never>
   };

export type TenantIsolationUpdateDialogMutationVariables = Exact<{
  d: string | number;
}>;


export type TenantIsolationUpdateDialogMutation = { updateDialog:
    | { __typename: 'ConflictError' }
    | { __typename: 'Dialog' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'ValidationError' }
   };

export type TenantIsolationCreateDialogMutationVariables = Exact<{ [key: string]: never; }>;


export type TenantIsolationCreateDialogMutation = { createDialog:
    | { id: string }
    | Record<PropertyKey, never>
   };

export type TenantIsolationDialogHistoryQueryVariables = Exact<{
  d: string | number;
  r: string | number;
}>;


export type TenantIsolationDialogHistoryQuery = { dialog: { history: { totalMessages: number } } | null };

export type TenantIsolationDialogsEdgesQueryVariables = Exact<{ [key: string]: never; }>;


export type TenantIsolationDialogsEdgesQuery = { dialogs: { edges: Array<{ node: { id: string } }> } };

export type TenantIsolationDialogTitleQueryVariables = Exact<{
  d: string | number;
}>;


export type TenantIsolationDialogTitleQuery = { dialog: { title: string | null, lastSeq: number, responses: { edges: Array<{ node: { id: string } }> }, head: { id: string, status: ResponseStatus } | null } | null };

export type TenantIsolationHistoryDeltaSeqSubscriptionVariables = Exact<{
  d: string | number;
}>;


export type TenantIsolationHistoryDeltaSeqSubscription = { historyDelta: { seq: number } };

export type TenantIsolationResponseUpdatedIdSubscriptionVariables = Exact<{
  r: string | number;
}>;


export type TenantIsolationResponseUpdatedIdSubscription = { responseUpdated: { id: string, status: ResponseStatus } };

export type TenantIsolationCreateResponse3MutationVariables = Exact<{
  c: string;
}>;


export type TenantIsolationCreateResponse3Mutation = { createResponse:
    | { __typename: 'ConflictError' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'Response', id: string }
    | { __typename: 'ValidationError' }
   };

export type PoolShareWriteMutationVariables = Exact<{
  input: CreateResponseInput;
}>;


export type PoolShareWriteMutation = { createResponse:
    | { __typename: 'ConflictError' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'Response', dialog: { id: string } }
    | { __typename: 'ValidationError' }
   };

export type PoolShareDialogQueryVariables = Exact<{
  id: string | number;
}>;


export type PoolShareDialogQuery = { dialog: { id: string } | null };

export type TokenBudgetResponseMessagesQueryVariables = Exact<{
  id: string | number;
}>;


export type TokenBudgetResponseMessagesQuery = { response: { chat: unknown, anthropic: unknown, ui: unknown, fitted: { messages: unknown, tokenCount: number, droppedEventCount: number, droppedThroughSeq: number | null }, all: { tokenCount: number, droppedEventCount: number }, dialog: { tokenCount: number, cl100k: number } } | null };

export type TokenBudgetResponseFittedMessagesQueryVariables = Exact<{
  id: string | number;
  max: number;
}>;


export type TokenBudgetResponseFittedMessagesQuery = { response: { fittedMessages: { messages: unknown, tokenCount: number, droppedEventCount: number, droppedThroughSeq: number | null } } | null };

export type TokenBudgetResponseMessages2QueryVariables = Exact<{
  id: string | number;
}>;


export type TokenBudgetResponseMessages2Query = { response: { messages: unknown } | null };

export type TurnAlwaysEndsStartMutationVariables = Exact<{ [key: string]: never; }>;


export type TurnAlwaysEndsStartMutation = { createResponse:
    | { id: string }
    | Record<PropertyKey, never>
   };

export type TurnAlwaysEndsAppendMutationVariables = Exact<{
  responseId: string | number;
}>;


export type TurnAlwaysEndsAppendMutation = { appendEvents:
    | { __typename: 'ConflictError' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'Response' }
    | { __typename: 'ValidationError' }
   };

export type UpstreamMetricsGenerateResponseMutationVariables = Exact<{
  input: GenerateResponseInput;
}>;


export type UpstreamMetricsGenerateResponseMutation = { generateResponse:
    | { __typename: 'BudgetExceededError' }
    | { __typename: 'ConflictError' }
    | { __typename: 'ModelNotConfiguredError' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'Response', id: string }
    | { __typename: 'ValidationError' }
   };

export type UpstreamMetricsResponseStatusSubscriptionVariables = Exact<{
  responseId: string | number;
}>;


export type UpstreamMetricsResponseStatusSubscription = { responseUpdated: { status: ResponseStatus } };

export type WebWorkbenchWriteMutationVariables = Exact<{
  input: CreateResponseInput;
}>;


export type WebWorkbenchWriteMutation = { createResponse:
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Response', id: string, dialog: { id: string } }
    | { __typename: 'ValidationError', message: string }
   };

export type WebWorkbenchUpdateDialogMutationVariables = Exact<{
  id: string | number;
}>;


export type WebWorkbenchUpdateDialogMutation = { updateDialog:
    | { __typename: 'ConflictError' }
    | { __typename: 'Dialog' }
    | { __typename: 'NotFoundError' }
    | { __typename: 'ValidationError' }
   };

export type WebWorkbenchDialogTitleQueryVariables = Exact<{
  id: string | number;
}>;


export type WebWorkbenchDialogTitleQuery = { dialog: { title: string | null } | null };

export type WebWorkbenchDialogForkedFromQueryVariables = Exact<{
  id: string | number;
}>;


export type WebWorkbenchDialogForkedFromQuery = { dialog: { forkedFrom: { id: string } | null } | null };

export type WrittenResponseFieldsFragment = { id: string, depth: number, model: string | null, status: ResponseStatus, metadata: Record<string, unknown>, error: unknown, createdAt: string, completedAt: string | null, expiresAt: string | null, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, dialog: { id: string, title: string | null, metadata: Record<string, unknown>, createdAt: string, updatedAt: string, eventCount: number } };

export type WriteAnswerCreateMutationVariables = Exact<{
  input: CreateResponseInput;
}>;


export type WriteAnswerCreateMutation = { createResponse:
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Response', id: string, depth: number, model: string | null, status: ResponseStatus, metadata: Record<string, unknown>, error: unknown, createdAt: string, completedAt: string | null, expiresAt: string | null, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, dialog: { id: string, title: string | null, metadata: Record<string, unknown>, createdAt: string, updatedAt: string, eventCount: number } }
    | { __typename: 'ValidationError', message: string }
   };

export type WriteAnswerReadQueryVariables = Exact<{
  id: string | number;
}>;


export type WriteAnswerReadQuery = { response: { id: string, depth: number, model: string | null, status: ResponseStatus, metadata: Record<string, unknown>, error: unknown, createdAt: string, completedAt: string | null, expiresAt: string | null, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null } | null, dialog: { id: string, title: string | null, metadata: Record<string, unknown>, createdAt: string, updatedAt: string, eventCount: number } } | null };

export type WriteAnswerCreateResponseMutationVariables = Exact<{
  input: CreateResponseInput;
}>;


export type WriteAnswerCreateResponseMutation = { createResponse:
    | { previousResponse: { id: string } | null, output: Array<
        | { content: string }
        | Record<PropertyKey, never>
      > }
    | Record<PropertyKey, never>
   };

export type ToolApprovalsQueryVariables = Exact<{
  responseId: string | number;
}>;


export type ToolApprovalsQuery = { response: { id: string, toolApprovals: Array<{ id: string, status: ToolApprovalStatus }> } | null };

export type ApproveToolCallMutationVariables = Exact<{
  input: ApproveToolCallInput;
}>;


export type ApproveToolCallMutation = { approveToolCall:
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'ModelNotConfiguredError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Response', id: string }
    | { __typename: 'ValidationError', message: string }
   };

export type CancelResponseFromViewerMutationVariables = Exact<{
  responseId: string | number;
}>;


export type CancelResponseFromViewerMutation = { cancelResponse:
    | { __typename: 'ConflictError', code: string, message: string }
    | { __typename: 'NotFoundError', code: string, message: string }
    | { __typename: 'Response', id: string, status: ResponseStatus }
    | { __typename: 'ValidationError', code: string, message: string }
   };

export type TitleDialogFromViewerMutationVariables = Exact<{
  dialogId: string | number;
  model?: string | null | undefined;
}>;


export type TitleDialogFromViewerMutation = { titleDialog:
    | { __typename: 'ConflictError', code: string, message: string }
    | { __typename: 'Dialog', id: string, title: string | null }
    | { __typename: 'NotFoundError', code: string, message: string }
    | { __typename: 'ValidationError', code: string, message: string }
   };

export type RecentModelsQueryVariables = Exact<{ [key: string]: never; }>;


export type RecentModelsQuery = { models: { configured: boolean, defaultModel: string | null }, dialogs: { edges: Array<{ node: { id: string, head: { id: string, model: string | null } | null } }> } };

export type ImportChatsFromViewerMutationVariables = Exact<{
  input: ImportChatsInput;
}>;


export type ImportChatsFromViewerMutation = { importChats:
    | { __typename: 'ConflictError', code: string, message: string }
    | { __typename: 'ImportChatsPayload', format: ChatExportFormat, conversations: number, imported: number, skipped: number, dialogs: Array<{ id: string }> }
    | { __typename: 'NotFoundError', code: string, message: string }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };

export type ShareLinksQueryVariables = Exact<{
  id: string | number;
}>;


export type ShareLinksQuery = { dialog: { id: string, shareLinks: Array<{ token: string, path: string, responseId: string | null, expiresAt: string | null }> } | null };

export type CreateShareLinkFromViewerMutationVariables = Exact<{
  input: CreateShareLinkInput;
}>;


export type CreateShareLinkFromViewerMutation = { createShareLink:
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ShareLink', token: string, path: string }
    | { __typename: 'ValidationError', message: string }
   };

export type RevokeShareLinkFromViewerMutationVariables = Exact<{
  token: string;
}>;


export type RevokeShareLinkFromViewerMutation = { revokeShareLink:
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ShareLink', token: string, revokedAt: string | null }
    | { __typename: 'ValidationError', message: string }
   };

export type SearchEventsQueryVariables = Exact<{
  query: string;
  filter?: SearchFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type SearchEventsQuery = { search: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node: { dialogId: string, responseId: string, seq: number, snippetParts: Array<{ text: string, match: boolean }>, dialog: { id: string, title: string | null, preview: string | null }, event:
          | { __typename: 'AiEvent', id: string, type: HistoryEventType }
          | { __typename: 'HumanEvent', id: string, type: HistoryEventType }
          | { __typename: 'ReasoningEvent', id: string, type: HistoryEventType }
          | { __typename: 'SystemEvent', id: string, type: HistoryEventType }
          | { __typename: 'ToolCallEvent', id: string, type: HistoryEventType, toolName: string }
          | { __typename: 'ToolResultEvent', id: string, type: HistoryEventType, toolName: string, isError: boolean }
         } }> } };

export type DialogPageQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  filter?: SearchFilter | null | undefined;
  orderBy?: DialogOrder | null | undefined;
}>;


export type DialogPageQuery = { dialogs: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node: { id: string, title: string | null, preview: string | null, updatedAt: string, eventCount: number, head: { id: string, status: ResponseStatus, model: string | null, createdAt: string, completedAt: string | null } | null } }> } };

export type DialogDetailsQueryVariables = Exact<{
  id: string | number;
}>;


export type DialogDetailsQuery = { dialog: { id: string, title: string | null, preview: string | null, metadata: Record<string, unknown>, head: { id: string } | null, forkedFrom: { id: string, dialog: { id: string, title: string | null } } | null, branches: Array<{ id: string, depth: number, model: string | null, status: ResponseStatus, createdAt: string }> } | null };

export type BranchOutlineQueryVariables = Exact<{
  a: string | number;
  b: string | number;
}>;


export type BranchOutlineQuery = { compareBranches: { commonAncestor: { id: string, depth: number } | null, b: { preview: string | null, eventCount: number } } };

export type CompareBranchesQueryVariables = Exact<{
  a: string | number;
  b: string | number;
}>;


export type CompareBranchesQuery = { compareBranches: { commonAncestor: { id: string, depth: number } | null, shared: { totalMessages: number }, a: { preview: string | null, eventCount: number, tip: { id: string, model: string | null, status: ResponseStatus }, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null }, events: Array<
        | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
            | { __typename: 'AudioPart', format: string }
            | { __typename: 'FilePart', fileId: string | null, filename: string | null }
            | { __typename: 'ImageUrlPart', url: string, detail: string | null }
            | { __typename: 'TextPart', text: string }
          > | null }
        | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
            | { __typename: 'AudioPart', format: string }
            | { __typename: 'FilePart', fileId: string | null, filename: string | null }
            | { __typename: 'ImageUrlPart', url: string, detail: string | null }
            | { __typename: 'TextPart', text: string }
          > | null }
        | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } }
        | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
            | { __typename: 'AudioPart', format: string }
            | { __typename: 'FilePart', fileId: string | null, filename: string | null }
            | { __typename: 'ImageUrlPart', url: string, detail: string | null }
            | { __typename: 'TextPart', text: string }
          > | null }
        | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } }
        | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } }
      > }, b: { preview: string | null, eventCount: number, tip: { id: string, model: string | null, status: ResponseStatus }, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null }, events: Array<
        | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
            | { __typename: 'AudioPart', format: string }
            | { __typename: 'FilePart', fileId: string | null, filename: string | null }
            | { __typename: 'ImageUrlPart', url: string, detail: string | null }
            | { __typename: 'TextPart', text: string }
          > | null }
        | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
            | { __typename: 'AudioPart', format: string }
            | { __typename: 'FilePart', fileId: string | null, filename: string | null }
            | { __typename: 'ImageUrlPart', url: string, detail: string | null }
            | { __typename: 'TextPart', text: string }
          > | null }
        | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } }
        | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
            | { __typename: 'AudioPart', format: string }
            | { __typename: 'FilePart', fileId: string | null, filename: string | null }
            | { __typename: 'ImageUrlPart', url: string, detail: string | null }
            | { __typename: 'TextPart', text: string }
          > | null }
        | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } }
        | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } }
      > } } };

export type BranchSideFieldsFragment = { preview: string | null, eventCount: number, tip: { id: string, model: string | null, status: ResponseStatus }, usage: { inputTokens: number | null, outputTokens: number | null, reasoningTokens: number | null, totalTokens: number | null }, events: Array<
    | { __typename: 'AiEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
        | { __typename: 'AudioPart', format: string }
        | { __typename: 'FilePart', fileId: string | null, filename: string | null }
        | { __typename: 'ImageUrlPart', url: string, detail: string | null }
        | { __typename: 'TextPart', text: string }
      > | null }
    | { __typename: 'HumanEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
        | { __typename: 'AudioPart', format: string }
        | { __typename: 'FilePart', fileId: string | null, filename: string | null }
        | { __typename: 'ImageUrlPart', url: string, detail: string | null }
        | { __typename: 'TextPart', text: string }
      > | null }
    | { __typename: 'ReasoningEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, modelName: string | null, response: { id: string } }
    | { __typename: 'SystemEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, content: string, response: { id: string }, parts: Array<
        | { __typename: 'AudioPart', format: string }
        | { __typename: 'FilePart', fileId: string | null, filename: string | null }
        | { __typename: 'ImageUrlPart', url: string, detail: string | null }
        | { __typename: 'TextPart', text: string }
      > | null }
    | { __typename: 'ToolCallEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, args: Record<string, unknown>, response: { id: string } }
    | { __typename: 'ToolResultEvent', id: string, seq: number, type: HistoryEventType, createdAt: string, metadata: Record<string, unknown>, callId: string, toolName: string, content: string, isError: boolean, response: { id: string } }
  > };

export type ExportMessagesQueryVariables = Exact<{
  id: string | number;
  format: MessageFormat;
}>;


export type ExportMessagesQuery = { response: { id: string, messages: unknown } | null };

export type ExportTranscriptQueryVariables = Exact<{
  dialogId: string | number;
  responseId?: string | number | null | undefined;
}>;


export type ExportTranscriptQuery = { dialog: { id: string, transcript: string } | null };

export type ForkDialogFromViewerMutationVariables = Exact<{
  input: ForkDialogInput;
}>;


export type ForkDialogFromViewerMutation = { forkDialog:
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'Dialog', id: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type DialogUsageQueryVariables = Exact<{
  dialogId: string | number;
  responseId: string | number;
  withBranch: boolean;
}>;


export type DialogUsageQuery = { dialog: { id: string, usage: { totalTokens: number, inputTokens: number, outputTokens: number, cachedTokens: number, reasoningTokens: number, cost: number } } | null, response?: { id: string, contextUsage: { totalTokens: number, inputTokens: number, outputTokens: number, cachedTokens: number, reasoningTokens: number, cost: number } } | null };

export type UsageByDayAndModelQueryVariables = Exact<{
  from?: unknown;
  to?: unknown;
}>;


export type UsageByDayAndModelQuery = { usage: { currency: string, rows: Array<{ day: string | null, model: string | null, responses: number, unpricedTokens: number, usage: { totalTokens: number, cost: number } }>, total: { totalTokens: number, inputTokens: number, outputTokens: number, cost: number } } };

export const ResponseSummaryFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ResponseSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<ResponseSummaryFragment, unknown>;
export const DialogSummaryFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DialogSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastSeq"}},{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}}]}}]}}]} as unknown as DocumentNode<DialogSummaryFragment, unknown>;
export const WriteErrorFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriteErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<WriteErrorFieldsFragment, unknown>;
export const ApplyHistoryDeltaEventFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ApplyHistoryDeltaEvent"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"modelName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}}]} as unknown as DocumentNode<ApplyHistoryDeltaEventFragment, unknown>;
export const ResponseOwnColumnsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ResponseOwnColumns"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}}]}}]} as unknown as DocumentNode<ResponseOwnColumnsFragment, unknown>;
export const DialogOwnColumnsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DialogOwnColumns"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<DialogOwnColumnsFragment, unknown>;
export const HistoryPageFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HistoryPageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryConnection"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalMessages"}},{"kind":"Field","name":{"kind":"Name","value":"totalReasoning"}},{"kind":"Field","name":{"kind":"Name","value":"totalToolCalls"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"modelName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}}]}}]}}]} as unknown as DocumentNode<HistoryPageFieldsFragment, unknown>;
export const WriterResponseFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriterResponse"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<WriterResponseFragment, unknown>;
export const WriterErrorFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriterError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}}]}}]} as unknown as DocumentNode<WriterErrorFragment, unknown>;
export const WriterFieldErrorsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriterFieldErrors"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]} as unknown as DocumentNode<WriterFieldErrorsFragment, unknown>;
export const WrittenResponseFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WrittenResponseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"eventCount"}}]}}]}}]} as unknown as DocumentNode<WrittenResponseFieldsFragment, unknown>;
export const ContentPartFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContentPartFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContentPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUrlPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AudioPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"format"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FilePart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fileId"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}}]}}]}}]} as unknown as DocumentNode<ContentPartFieldsFragment, unknown>;
export const HistoryEventFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HistoryEventFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"modelName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContentPartFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContentPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUrlPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AudioPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"format"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FilePart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fileId"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}}]}}]}}]} as unknown as DocumentNode<HistoryEventFieldsFragment, unknown>;
export const BranchSideFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"BranchSideFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BranchSide"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tip"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"Field","name":{"kind":"Name","value":"preview"}},{"kind":"Field","name":{"kind":"Name","value":"eventCount"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"events"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HistoryEventFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContentPartFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContentPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUrlPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AudioPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"format"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FilePart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fileId"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HistoryEventFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"modelName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}}]} as unknown as DocumentNode<BranchSideFieldsFragment, unknown>;
export const CreateDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateDialog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateDialogInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DialogSummary"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriteErrorFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DialogSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastSeq"}},{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriteErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<CreateDialogMutation, CreateDialogMutationVariables>;
export const UpdateDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateDialog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateDialogInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DialogSummary"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriteErrorFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DialogSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastSeq"}},{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriteErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<UpdateDialogMutation, UpdateDialogMutationVariables>;
export const ClearDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ClearDialog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ClearDialogInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"clearDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DialogSummary"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriteErrorFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DialogSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastSeq"}},{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriteErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ClearDialogMutation, ClearDialogMutationVariables>;
export const DeleteDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteDialog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DeleteDialogInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DeleteDialogPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriteErrorFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriteErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<DeleteDialogMutation, DeleteDialogMutationVariables>;
export const CreateResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateResponse"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ResponseSummary"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"input"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HistoryEventFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"output"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HistoryEventFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriteErrorFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContentPartFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContentPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUrlPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AudioPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"format"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FilePart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fileId"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ResponseSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HistoryEventFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"modelName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriteErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<CreateResponseMutation, CreateResponseMutationVariables>;
export const AppendEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppendEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AppendEventsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"appendEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ResponseSummary"}},{"kind":"Field","name":{"kind":"Name","value":"output"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HistoryEventFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriteErrorFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContentPartFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContentPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUrlPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AudioPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"format"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FilePart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fileId"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ResponseSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HistoryEventFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"modelName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriteErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<AppendEventsMutation, AppendEventsMutationVariables>;
export const CompleteResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CompleteResponse"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CompleteResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"completeResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ResponseSummary"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriteErrorFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ResponseSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriteErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<CompleteResponseMutation, CompleteResponseMutationVariables>;
export const InterruptResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"InterruptResponse"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"InterruptResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"interruptResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ResponseSummary"}},{"kind":"Field","name":{"kind":"Name","value":"output"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HistoryEventFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriteErrorFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContentPartFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContentPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUrlPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AudioPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"format"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FilePart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fileId"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ResponseSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HistoryEventFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"modelName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriteErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<InterruptResponseMutation, InterruptResponseMutationVariables>;
export const ImportMessagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ImportMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ImportMessagesInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"importMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ResponseSummary"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriteErrorFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ResponseSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriteErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ImportMessagesMutation, ImportMessagesMutationVariables>;
export const StreamTextDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"StreamText"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"StreamTextInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"streamText"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPosition"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"responseId"}},{"kind":"Field","name":{"kind":"Name","value":"part"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"offset"}},{"kind":"Field","name":{"kind":"Name","value":"length"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextOffsetError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedOffset"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriteErrorFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriteErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<StreamTextMutation, StreamTextMutationVariables>;
export const CommitTextDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CommitText"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"commitText"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ResponseSummary"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriteErrorFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ResponseSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriteErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<CommitTextMutation, CommitTextMutationVariables>;
export const GenerateResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"GenerateResponse"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"GenerateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"generateResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ResponseSummary"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ResponseSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<GenerateResponseMutation, GenerateResponseMutationVariables>;
export const DialogsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Dialogs"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialogs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DialogSummary"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DialogSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastSeq"}},{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}}]}}]}}]} as unknown as DocumentNode<DialogsQuery, DialogsQueryVariables>;
export const DialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Dialog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DialogSummary"}},{"kind":"Field","name":{"kind":"Name","value":"forkedFrom"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"branches"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ResponseSummary"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DialogSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastSeq"}},{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ResponseSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<DialogQuery, DialogQueryVariables>;
export const DialogHistoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DialogHistory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"types"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEventType"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"history"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}}},{"kind":"Argument","name":{"kind":"Name","value":"types"},"value":{"kind":"Variable","name":{"kind":"Name","value":"types"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalMessages"}},{"kind":"Field","name":{"kind":"Name","value":"totalReasoning"}},{"kind":"Field","name":{"kind":"Name","value":"totalToolCalls"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HistoryEventFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ResponseSummary"}}]}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContentPartFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContentPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUrlPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AudioPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"format"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FilePart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fileId"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HistoryEventFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"modelName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ResponseSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<DialogHistoryQuery, DialogHistoryQueryVariables>;
export const DialogLastSeqDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DialogLastSeq"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"lastSeq"}}]}}]}}]} as unknown as DocumentNode<DialogLastSeqQuery, DialogLastSeqQueryVariables>;
export const DialogHeadDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DialogHead"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ResponseSummary"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ResponseSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<DialogHeadQuery, DialogHeadQueryVariables>;
export const ResponseTipDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ResponseTip"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ResponseSummary"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ResponseSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<ResponseTipQuery, ResponseTipQueryVariables>;
export const DialogTreeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DialogTree"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"responses"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"preview"}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]}}]} as unknown as DocumentNode<DialogTreeQuery, DialogTreeQueryVariables>;
export const ResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Response"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ResponseSummary"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"children"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"input"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HistoryEventFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"output"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HistoryEventFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContentPartFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContentPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUrlPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AudioPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"format"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FilePart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fileId"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ResponseSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HistoryEventFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"modelName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}}]} as unknown as DocumentNode<ResponseQuery, ResponseQueryVariables>;
export const ResponseContextDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ResponseContext"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"types"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEventType"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"context"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"types"},"value":{"kind":"Variable","name":{"kind":"Name","value":"types"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalMessages"}},{"kind":"Field","name":{"kind":"Name","value":"totalReasoning"}},{"kind":"Field","name":{"kind":"Name","value":"totalToolCalls"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HistoryEventFields"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContentPartFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContentPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUrlPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AudioPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"format"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FilePart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fileId"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HistoryEventFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"modelName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}}]} as unknown as DocumentNode<ResponseContextQuery, ResponseContextQueryVariables>;
export const ResponseMessagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ResponseMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"format"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"MessageFormat"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"includeReasoning"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"maxTokens"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tokenizer"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Tokenizer"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"fittedMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"format"},"value":{"kind":"Variable","name":{"kind":"Name","value":"format"}}},{"kind":"Argument","name":{"kind":"Name","value":"includeReasoning"},"value":{"kind":"Variable","name":{"kind":"Name","value":"includeReasoning"}}},{"kind":"Argument","name":{"kind":"Name","value":"maxTokens"},"value":{"kind":"Variable","name":{"kind":"Name","value":"maxTokens"}}},{"kind":"Argument","name":{"kind":"Name","value":"tokenizer"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tokenizer"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messages"}},{"kind":"Field","name":{"kind":"Name","value":"tokenCount"}},{"kind":"Field","name":{"kind":"Name","value":"droppedEventCount"}},{"kind":"Field","name":{"kind":"Name","value":"droppedThroughSeq"}}]}}]}}]}}]} as unknown as DocumentNode<ResponseMessagesQuery, ResponseMessagesQueryVariables>;
export const DialogMessagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DialogMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"format"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"MessageFormat"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"includeReasoning"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"maxTokens"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tokenizer"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Tokenizer"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"messages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"format"},"value":{"kind":"Variable","name":{"kind":"Name","value":"format"}}},{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}}},{"kind":"Argument","name":{"kind":"Name","value":"includeReasoning"},"value":{"kind":"Variable","name":{"kind":"Name","value":"includeReasoning"}}},{"kind":"Argument","name":{"kind":"Name","value":"maxTokens"},"value":{"kind":"Variable","name":{"kind":"Name","value":"maxTokens"}}},{"kind":"Argument","name":{"kind":"Name","value":"tokenizer"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tokenizer"}}}]},{"kind":"Field","name":{"kind":"Name","value":"tokenCount"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}}},{"kind":"Argument","name":{"kind":"Name","value":"tokenizer"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tokenizer"}}}]}]}}]}}]} as unknown as DocumentNode<DialogMessagesQuery, DialogMessagesQueryVariables>;
export const ModelsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Models"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"models"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"configured"}},{"kind":"Field","name":{"kind":"Name","value":"defaultModel"}}]}}]}}]} as unknown as DocumentNode<ModelsQuery, ModelsQueryVariables>;
export const HistoryDeltaDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"HistoryDelta"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"textOffsets"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TextOffsetInput"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"historyDelta"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dialogId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}}},{"kind":"Argument","name":{"kind":"Name","value":"afterSeq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}}},{"kind":"Argument","name":{"kind":"Name","value":"textOffsets"},"value":{"kind":"Variable","name":{"kind":"Name","value":"textOffsets"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialogId"}},{"kind":"Field","name":{"kind":"Name","value":"cleared"}},{"kind":"Field","name":{"kind":"Name","value":"responseDeleted"}},{"kind":"Field","name":{"kind":"Name","value":"responseId"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"previousSeq"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"endsTextPart"}},{"kind":"Field","name":{"kind":"Name","value":"text"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"responseId"}},{"kind":"Field","name":{"kind":"Name","value":"part"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"offset"}},{"kind":"Field","name":{"kind":"Name","value":"delta"}}]}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ResponseSummary"}}]}},{"kind":"Field","name":{"kind":"Name","value":"append"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HistoryEventFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContentPartFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContentPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUrlPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AudioPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"format"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FilePart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fileId"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ResponseSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HistoryEventFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"modelName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}}]} as unknown as DocumentNode<HistoryDeltaSubscription, HistoryDeltaSubscriptionVariables>;
export const ResponseUpdatedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ResponseUpdated"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"responseUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ResponseSummary"}},{"kind":"Field","name":{"kind":"Name","value":"output"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HistoryEventFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContentPartFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContentPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUrlPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AudioPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"format"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FilePart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fileId"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ResponseSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HistoryEventFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"modelName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}}]} as unknown as DocumentNode<ResponseUpdatedSubscription, ResponseUpdatedSubscriptionVariables>;
export const ApplyHistoryDeltaStreamDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ApplyHistoryDeltaStream"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"historyDelta"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dialogId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}}},{"kind":"Argument","name":{"kind":"Name","value":"afterSeq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"previousSeq"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"append"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ApplyHistoryDeltaEvent"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ApplyHistoryDeltaEvent"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"modelName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}}]} as unknown as DocumentNode<ApplyHistoryDeltaStreamSubscription, ApplyHistoryDeltaStreamSubscriptionVariables>;
export const ApplyHistoryDeltaDialogHistoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ApplyHistoryDeltaDialogHistory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"history"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1000"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ApplyHistoryDeltaEvent"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ApplyHistoryDeltaEvent"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"modelName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}}]} as unknown as DocumentNode<ApplyHistoryDeltaDialogHistoryQuery, ApplyHistoryDeltaDialogHistoryQueryVariables>;
export const AuthenticationCreateDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AuthenticationCreateDialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"title"},"value":{"kind":"StringValue","value":"dev","block":false}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<AuthenticationCreateDialogMutation, AuthenticationCreateDialogMutationVariables>;
export const Authentication_TypenameDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Authentication_Typename"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]} as unknown as DocumentNode<Authentication_TypenameQuery, Authentication_TypenameQueryVariables>;
export const AuthenticationCreateResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AuthenticationCreateResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"input"},"value":{"kind":"ListValue","values":[{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"human"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"content"},"value":{"kind":"StringValue","value":"hi","block":false}}]}}]}]}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<AuthenticationCreateResponseMutation, AuthenticationCreateResponseMutationVariables>;
export const BadInputDialogIdDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"BadInputDialogId"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"StringValue","value":"01JMISSING","block":false}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"StringValue","value":"resp_MISSING","block":false}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<BadInputDialogIdQuery, BadInputDialogIdQueryVariables>;
export const BadInputDialogHistoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"BadInputDialogHistory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"d"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"r"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"d"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"history"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"r"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalMessages"}}]}}]}}]}}]} as unknown as DocumentNode<BadInputDialogHistoryQuery, BadInputDialogHistoryQueryVariables>;
export const BadInputUDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"BadInputU"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"u"},"name":{"kind":"Name","value":"updateDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"StringValue","value":"01JNOPE","block":false}},{"kind":"ObjectField","name":{"kind":"Name","value":"title"},"value":{"kind":"StringValue","value":"x","block":false}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"d"},"name":{"kind":"Name","value":"deleteDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"StringValue","value":"01JNOPE","block":false}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<BadInputUMutation, BadInputUMutationVariables>;
export const BranchesResponseCommonAncestorDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"BranchesResponseCommonAncestor"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"w"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"commonAncestor"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"with"},"value":{"kind":"Variable","name":{"kind":"Name","value":"w"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<BranchesResponseCommonAncestorQuery, BranchesResponseCommonAncestorQueryVariables>;
export const BranchesResponseCommonAncestor2Document = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"BranchesResponseCommonAncestor2"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"commonAncestor"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"with"},"value":{"kind":"StringValue","value":"resp_nope","block":false}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<BranchesResponseCommonAncestor2Query, BranchesResponseCommonAncestor2QueryVariables>;
export const BranchesCompareBranchesCommonAncestorDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"BranchesCompareBranchesCommonAncestor"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"a"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"b"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"compareBranches"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"a"},"value":{"kind":"Variable","name":{"kind":"Name","value":"a"}}},{"kind":"Argument","name":{"kind":"Name","value":"b"},"value":{"kind":"Variable","name":{"kind":"Name","value":"b"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"commonAncestor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"shared"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalMessages"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"a"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tip"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"responses"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"preview"}},{"kind":"Field","name":{"kind":"Name","value":"eventCount"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"events"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"b"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tip"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"responses"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"eventCount"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"events"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<BranchesCompareBranchesCommonAncestorQuery, BranchesCompareBranchesCommonAncestorQueryVariables>;
export const ChainingDialogHeadDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ChainingDialogHead"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"branches"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"responses"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"50"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"children"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"history"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ChainingDialogHeadQuery, ChainingDialogHeadQueryVariables>;
export const ChainingResponseContextDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ChainingResponseContext"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"context"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalMessages"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"input"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"output"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ChainingResponseContextQuery, ChainingResponseContextQueryVariables>;
export const ChainingDialogHistoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ChainingDialogHistory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"r"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"history"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"r"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ChainingDialogHistoryQuery, ChainingDialogHistoryQueryVariables>;
export const ChainingDialogsEdgesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ChainingDialogsEdges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialogs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<ChainingDialogsEdgesQuery, ChainingDialogsEdgesQueryVariables>;
export const ChainingDialogsEdges2Document = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ChainingDialogsEdges2"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialogs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ChainingDialogsEdges2Query, ChainingDialogsEdges2QueryVariables>;
export const ChainingResponseCreatedAtDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ChainingResponseCreatedAt"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"input"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"output"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ChainingResponseCreatedAtQuery, ChainingResponseCreatedAtQueryVariables>;
export const ChainingCreateDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ChainingCreateDialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"title"},"value":{"kind":"StringValue","value":"Trip","block":false}},{"kind":"ObjectField","name":{"kind":"Name","value":"metadata"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"owner"},"value":{"kind":"StringValue","value":"ana","block":false}}]}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ChainingCreateDialogMutation, ChainingCreateDialogMutationVariables>;
export const ChainingDialogHistory2Document = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ChainingDialogHistory2"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"history"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalMessages"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ChainingDialogHistory2Query, ChainingDialogHistory2QueryVariables>;
export const ChainingUpdateDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ChainingUpdateDialog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"title"},"value":{"kind":"StringValue","value":"Trip to Lisbon","block":false}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}}]}}]}}]} as unknown as DocumentNode<ChainingUpdateDialogMutation, ChainingUpdateDialogMutationVariables>;
export const ChainingDeleteDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ChainingDeleteDialog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DeleteDialogPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<ChainingDeleteDialogMutation, ChainingDeleteDialogMutationVariables>;
export const ContextAddressingReadsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ContextAddressingReads"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dialog"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tip"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dialog"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventCount"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tip"}}}]},{"kind":"Field","alias":{"kind":"Name","value":"toolCalls"},"name":{"kind":"Name","value":"eventCount"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tip"}}},{"kind":"Argument","name":{"kind":"Name","value":"types"},"value":{"kind":"ListValue","values":[{"kind":"EnumValue","value":"TOOL_CALL"}]}}]},{"kind":"Field","name":{"kind":"Name","value":"lastEvent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tip"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"lastHuman"},"name":{"kind":"Name","value":"lastEvent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tip"}}},{"kind":"Argument","name":{"kind":"Name","value":"types"},"value":{"kind":"ListValue","values":[{"kind":"EnumValue","value":"HUMAN"}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"history"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tip"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalMessages"}},{"kind":"Field","name":{"kind":"Name","value":"totalToolCalls"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ContextAddressingReadsQuery, ContextAddressingReadsQueryVariables>;
export const ContextAddressingCommonAncestorDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ContextAddressingCommonAncestor"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"a"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"b"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"a"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"commonAncestor"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"with"},"value":{"kind":"Variable","name":{"kind":"Name","value":"b"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<ContextAddressingCommonAncestorQuery, ContextAddressingCommonAncestorQueryVariables>;
export const ContextAddressingAppendDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ContextAddressingAppend"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AppendEventsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"appendEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}}]} as unknown as DocumentNode<ContextAddressingAppendMutation, ContextAddressingAppendMutationVariables>;
export const ContextAddressingForkDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ContextAddressingFork"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ForkDialogInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"forkDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ContextAddressingForkMutation, ContextAddressingForkMutationVariables>;
export const ContextAddressingPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ContextAddressingPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"context"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalMessages"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ContextAddressingPageQuery, ContextAddressingPageQueryVariables>;
export const DatabaseTimeWriteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DatabaseTimeWrite"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<DatabaseTimeWriteMutation, DatabaseTimeWriteMutationVariables>;
export const DeepChainResponseContextDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DeepChainResponseContext"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"context"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10000"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalMessages"}},{"kind":"Field","name":{"kind":"Name","value":"totalReasoning"}},{"kind":"Field","name":{"kind":"Name","value":"totalToolCalls"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"model"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<DeepChainResponseContextQuery, DeepChainResponseContextQueryVariables>;
export const DeepChainDialogHistoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DeepChainDialogHistory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"history"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalMessages"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<DeepChainDialogHistoryQuery, DeepChainDialogHistoryQueryVariables>;
export const DialogOverviewDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DialogOverview"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"r"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"types"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEventType"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"max"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventCount"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"r"}}},{"kind":"Argument","name":{"kind":"Name","value":"types"},"value":{"kind":"Variable","name":{"kind":"Name","value":"types"}}}]},{"kind":"Field","name":{"kind":"Name","value":"lastEvent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"r"}}},{"kind":"Argument","name":{"kind":"Name","value":"types"},"value":{"kind":"Variable","name":{"kind":"Name","value":"types"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"transcript"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"r"}}},{"kind":"Argument","name":{"kind":"Name","value":"maxContentLength"},"value":{"kind":"Variable","name":{"kind":"Name","value":"max"}}}]},{"kind":"Field","name":{"kind":"Name","value":"history"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"r"}}},{"kind":"Argument","name":{"kind":"Name","value":"types"},"value":{"kind":"Variable","name":{"kind":"Name","value":"types"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalMessages"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<DialogOverviewQuery, DialogOverviewQueryVariables>;
export const TranscriptOfLength0Document = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TranscriptOfLength0"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transcript"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"maxContentLength"},"value":{"kind":"IntValue","value":"0"}}]}]}}]}}]} as unknown as DocumentNode<TranscriptOfLength0Query, TranscriptOfLength0QueryVariables>;
export const FirstHumanEventMetadataDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FirstHumanEventMetadata"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"history"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"types"},"value":{"kind":"ListValue","values":[{"kind":"EnumValue","value":"HUMAN"}]}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<FirstHumanEventMetadataQuery, FirstHumanEventMetadataQueryVariables>;
export const CreateEmptyDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateEmptyDialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<CreateEmptyDialogMutation, CreateEmptyDialogMutationVariables>;
export const ForkDialogForTestDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ForkDialogForTest"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ForkDialogInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"forkDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"lastSeq"}},{"kind":"Field","name":{"kind":"Name","value":"forkedFrom"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ForkDialogForTestMutation, ForkDialogForTestMutationVariables>;
export const RenameDialogDeepDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RenameDialogDeep"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"title"},"value":{"kind":"StringValue","value":"Deep","block":false}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}}]} as unknown as DocumentNode<RenameDialogDeepMutation, RenameDialogDeepMutationVariables>;
export const ClearDialogForTestDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ClearDialogForTest"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"clearDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"lastSeq"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"eventCount"}},{"kind":"Field","name":{"kind":"Name","value":"history"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalMessages"}}]}},{"kind":"Field","name":{"kind":"Name","value":"branches"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ClearDialogForTestMutation, ClearDialogForTestMutationVariables>;
export const HumanEventsAfterClearDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"HumanEventsAfterClear"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lastSeq"}},{"kind":"Field","name":{"kind":"Name","value":"history"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<HumanEventsAfterClearQuery, HumanEventsAfterClearQueryVariables>;
export const ForkProvenanceDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ForkProvenance"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"forkedFrom"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"eventCount"}}]}}]}}]} as unknown as DocumentNode<ForkProvenanceQuery, ForkProvenanceQueryVariables>;
export const FaultPostgresWriteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"FaultPostgresWrite"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<FaultPostgresWriteMutation, FaultPostgresWriteMutationVariables>;
export const FaultRedisStallWriteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"FaultRedisStallWrite"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"lastSeq"}}]}}]}}]}}]}}]} as unknown as DocumentNode<FaultRedisStallWriteMutation, FaultRedisStallWriteMutationVariables>;
export const FaultRedisStallTypenameDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FaultRedisStallTypename"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]} as unknown as DocumentNode<FaultRedisStallTypenameQuery, FaultRedisStallTypenameQueryVariables>;
export const FormatsRoundTripDialogHistoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FormatsRoundTripDialogHistory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"history"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1000"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<FormatsRoundTripDialogHistoryQuery, FormatsRoundTripDialogHistoryQueryVariables>;
export const FuzzStillAnsweringDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FuzzStillAnswering"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]} as unknown as DocumentNode<FuzzStillAnsweringQuery, FuzzStillAnsweringQueryVariables>;
export const GenerateResponseGenerateResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"GenerateResponseGenerateResponse"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"GenerateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"generateResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<GenerateResponseGenerateResponseMutation, GenerateResponseGenerateResponseMutationVariables>;
export const GenerateResponseResponseUpdatedStatusDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"GenerateResponseResponseUpdatedStatus"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"responseUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"output"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}}]}}]} as unknown as DocumentNode<GenerateResponseResponseUpdatedStatusSubscription, GenerateResponseResponseUpdatedStatusSubscriptionVariables>;
export const GenerateResponseResponseChildrenDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GenerateResponseResponseChildren"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"children"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<GenerateResponseResponseChildrenQuery, GenerateResponseResponseChildrenQueryVariables>;
export const GenerateResponseModelsConfiguredDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GenerateResponseModelsConfigured"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"models"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"configured"}},{"kind":"Field","name":{"kind":"Name","value":"defaultModel"}}]}}]}}]} as unknown as DocumentNode<GenerateResponseModelsConfiguredQuery, GenerateResponseModelsConfiguredQueryVariables>;
export const GenerateResponseModelsConfigured2Document = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GenerateResponseModelsConfigured2"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"models"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"configured"}},{"kind":"Field","name":{"kind":"Name","value":"defaultModel"}}]}},{"kind":"Field","name":{"kind":"Name","value":"dialogs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<GenerateResponseModelsConfigured2Query, GenerateResponseModelsConfigured2QueryVariables>;
export const GracefulShutdownWriteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"GracefulShutdownWrite"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<GracefulShutdownWriteMutation, GracefulShutdownWriteMutationVariables>;
export const GraphiqlCreateResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"GraphiqlCreateResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"input"},"value":{"kind":"ListValue","values":[{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"human"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"content"},"value":{"kind":"StringValue","value":"from GraphiQL","block":false}}]}}]}]}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<GraphiqlCreateResponseMutation, GraphiqlCreateResponseMutationVariables>;
export const HistoryPaginationPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"HistoryPaginationPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"types"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEventType"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"history"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}},{"kind":"Argument","name":{"kind":"Name","value":"types"},"value":{"kind":"Variable","name":{"kind":"Name","value":"types"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HistoryPageFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HistoryPageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryConnection"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalMessages"}},{"kind":"Field","name":{"kind":"Name","value":"totalReasoning"}},{"kind":"Field","name":{"kind":"Name","value":"totalToolCalls"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"modelName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}}]}}]}}]} as unknown as DocumentNode<HistoryPaginationPageQuery, HistoryPaginationPageQueryVariables>;
export const IdempotentRetryCreateResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"IdempotentRetryCreateResponse"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<IdempotentRetryCreateResponseMutation, IdempotentRetryCreateResponseMutationVariables>;
export const ImportChatsInTestDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ImportChatsInTest"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ImportChatsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"importChats"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImportChatsPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"format"}},{"kind":"Field","name":{"kind":"Name","value":"conversations"}},{"kind":"Field","name":{"kind":"Name","value":"imported"}},{"kind":"Field","name":{"kind":"Name","value":"skipped"}},{"kind":"Field","name":{"kind":"Name","value":"dialogs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ImportChatsInTestMutation, ImportChatsInTestMutationVariables>;
export const ImportedDialogInTestDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ImportedDialogInTest"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"Field","name":{"kind":"Name","value":"branches"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"responses"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"input"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HistoryEventFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"output"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HistoryEventFields"}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"history"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HistoryEventFields"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContentPartFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContentPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUrlPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AudioPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"format"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FilePart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fileId"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HistoryEventFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"modelName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}}]} as unknown as DocumentNode<ImportedDialogInTestQuery, ImportedDialogInTestQueryVariables>;
export const ImportMessagesDialogLastSeqDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ImportMessagesDialogLastSeq"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lastSeq"}},{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"responses"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"input"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}},{"kind":"Field","name":{"kind":"Name","value":"output"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ImportMessagesDialogLastSeqQuery, ImportMessagesDialogLastSeqQueryVariables>;
export const ImportMessagesDialogLastSeq2Document = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ImportMessagesDialogLastSeq2"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lastSeq"}},{"kind":"Field","name":{"kind":"Name","value":"history"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ImportMessagesDialogLastSeq2Query, ImportMessagesDialogLastSeq2QueryVariables>;
export const ImportMessagesResponsePreviousResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ImportMessagesResponsePreviousResponse"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"input"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUrlPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ImportMessagesResponsePreviousResponseQuery, ImportMessagesResponsePreviousResponseQueryVariables>;
export const LiveClearHistoryDeltaClearedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"LiveClearHistoryDeltaCleared"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"historyDelta"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dialogId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}}},{"kind":"Argument","name":{"kind":"Name","value":"afterSeq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cleared"}},{"kind":"Field","name":{"kind":"Name","value":"responseId"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"previousSeq"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"append"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}}]}}]}}]}}]}}]} as unknown as DocumentNode<LiveClearHistoryDeltaClearedSubscription, LiveClearHistoryDeltaClearedSubscriptionVariables>;
export const LiveClearCreateResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LiveClearCreateResponse"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<LiveClearCreateResponseMutation, LiveClearCreateResponseMutationVariables>;
export const LiveClearClearDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LiveClearClearDialog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"clearDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}}]} as unknown as DocumentNode<LiveClearClearDialogMutation, LiveClearClearDialogMutationVariables>;
export const LiveClearDeleteDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LiveClearDeleteDialog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}}]} as unknown as DocumentNode<LiveClearDeleteDialogMutation, LiveClearDeleteDialogMutationVariables>;
export const LiveImportImportMessagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LiveImportImportMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ImportMessagesInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"importMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<LiveImportImportMessagesMutation, LiveImportImportMessagesMutationVariables>;
export const LiveInFlightTextCommitTextDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LiveInFlightTextCommitText"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"commitText"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<LiveInFlightTextCommitTextMutation, LiveInFlightTextCommitTextMutationVariables>;
export const LiveInFlightTextClearDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LiveInFlightTextClearDialog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"clearDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}}]} as unknown as DocumentNode<LiveInFlightTextClearDialogMutation, LiveInFlightTextClearDialogMutationVariables>;
export const LiveInFlightTextCreateResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LiveInFlightTextCreateResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"input"},"value":{"kind":"ListValue","values":[{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"human"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"content"},"value":{"kind":"StringValue","value":"mine","block":false}}]}}]}]}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<LiveInFlightTextCreateResponseMutation, LiveInFlightTextCreateResponseMutationVariables>;
export const LiveResumeCreateDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LiveResumeCreateDialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"title"},"value":{"kind":"StringValue","value":"busy","block":false}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<LiveResumeCreateDialogMutation, LiveResumeCreateDialogMutationVariables>;
export const LiveSharedDeliveryHistoryDeltaSeqDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"LiveSharedDeliveryHistoryDeltaSeq"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"historyDelta"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dialogId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}}},{"kind":"Argument","name":{"kind":"Name","value":"afterSeq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"previousSeq"}},{"kind":"Field","name":{"kind":"Name","value":"append"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}}]}}]} as unknown as DocumentNode<LiveSharedDeliveryHistoryDeltaSeqSubscription, LiveSharedDeliveryHistoryDeltaSeqSubscriptionVariables>;
export const LiveTextResumeTortureCommitTextDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LiveTextResumeTortureCommitText"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"commitText"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}}]} as unknown as DocumentNode<LiveTextResumeTortureCommitTextMutation, LiveTextResumeTortureCommitTextMutationVariables>;
export const LiveTextResumeTortureCreateDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LiveTextResumeTortureCreateDialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"title"},"value":{"kind":"StringValue","value":"torture","block":false}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<LiveTextResumeTortureCreateDialogMutation, LiveTextResumeTortureCreateDialogMutationVariables>;
export const LiveTransportsResponseUpdatedIdDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"LiveTransportsResponseUpdatedId"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"responseUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"output"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}}]}}]} as unknown as DocumentNode<LiveTransportsResponseUpdatedIdSubscription, LiveTransportsResponseUpdatedIdSubscriptionVariables>;
export const OperationsCreateResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"OperationsCreateResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"input"},"value":{"kind":"ListValue","values":[{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"human"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"content"},"value":{"kind":"StringValue","value":"hi","block":false}}]}}]}]}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<OperationsCreateResponseMutation, OperationsCreateResponseMutationVariables>;
export const OperationsCreateResponse2Document = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"OperationsCreateResponse2"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"d"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"dialogId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"d"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"input"},"value":{"kind":"ListValue","values":[{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"human"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"content"},"value":{"kind":"StringValue","value":"again","block":false}}]}}]}]}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}}]} as unknown as DocumentNode<OperationsCreateResponse2Mutation, OperationsCreateResponse2MutationVariables>;
export const ResponsesApiStreamResponseUpdatedStatusDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ResponsesApiStreamResponseUpdatedStatus"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"responseUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<ResponsesApiStreamResponseUpdatedStatusSubscription, ResponsesApiStreamResponseUpdatedStatusSubscriptionVariables>;
export const RetentionExpiryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RetentionExpiry"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]}}]} as unknown as DocumentNode<RetentionExpiryQuery, RetentionExpiryQueryVariables>;
export const RetentionRenameDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RetentionRename"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"title"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"title"},"value":{"kind":"Variable","name":{"kind":"Name","value":"title"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<RetentionRenameMutation, RetentionRenameMutationVariables>;
export const RetentionForkDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RetentionFork"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"r"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"forkDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"r"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<RetentionForkMutation, RetentionForkMutationVariables>;
export const RetentionClearDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RetentionClear"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"clearDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}}]} as unknown as DocumentNode<RetentionClearMutation, RetentionClearMutationVariables>;
export const ResponseOwnColumnsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ResponseOwnColumns"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ResponseOwnColumns"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ResponseOwnColumns"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}}]}}]} as unknown as DocumentNode<ResponseOwnColumnsQuery, ResponseOwnColumnsQueryVariables>;
export const ResponseOwnColumnsAndDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ResponseOwnColumnsAndDialog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ResponseOwnColumns"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ResponseOwnColumns"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}}]}}]} as unknown as DocumentNode<ResponseOwnColumnsAndDialogQuery, ResponseOwnColumnsAndDialogQueryVariables>;
export const DialogOwnColumnsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DialogOwnColumns"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DialogOwnColumns"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DialogOwnColumns"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<DialogOwnColumnsQuery, DialogOwnColumnsQueryVariables>;
export const DialogOwnColumnsAndHeadDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DialogOwnColumnsAndHead"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DialogOwnColumns"}},{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DialogOwnColumns"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<DialogOwnColumnsAndHeadQuery, DialogOwnColumnsAndHeadQueryVariables>;
export const RootLookupsCreateResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RootLookupsCreateResponse"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<RootLookupsCreateResponseMutation, RootLookupsCreateResponseMutationVariables>;
export const SearchHitsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SearchHits"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"q"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"SearchFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"search"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"query"},"value":{"kind":"Variable","name":{"kind":"Name","value":"q"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialogId"}},{"kind":"Field","name":{"kind":"Name","value":"responseId"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"rank"}},{"kind":"Field","name":{"kind":"Name","value":"snippet"}},{"kind":"Field","name":{"kind":"Name","value":"snippetParts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"match"}}]}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"model"}}]}},{"kind":"Field","name":{"kind":"Name","value":"event"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<SearchHitsQuery, SearchHitsQueryVariables>;
export const SearchUpdateDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SearchUpdateDialog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"metadata"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"project"},"value":{"kind":"StringValue","value":"meteo","block":false}}]}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}}]} as unknown as DocumentNode<SearchUpdateDialogMutation, SearchUpdateDialogMutationVariables>;
export const FilteredDialogListDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FilteredDialogList"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"SearchFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"orderBy"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DialogOrder"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialogs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"orderBy"},"value":{"kind":"Variable","name":{"kind":"Name","value":"orderBy"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"preview"}}]}}]}}]}}]}}]} as unknown as DocumentNode<FilteredDialogListQuery, FilteredDialogListQueryVariables>;
export const TenantWriteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TenantWrite"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"c"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"input"},"value":{"kind":"ListValue","values":[{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"human"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"content"},"value":{"kind":"Variable","name":{"kind":"Name","value":"c"}}}]}}]}]}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}}]} as unknown as DocumentNode<TenantWriteMutation, TenantWriteMutationVariables>;
export const TenantSearchSnippetsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TenantSearchSnippets"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"q"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"search"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"query"},"value":{"kind":"Variable","name":{"kind":"Name","value":"q"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"snippet"}}]}}]}}]}}]}}]} as unknown as DocumentNode<TenantSearchSnippetsQuery, TenantSearchSnippetsQueryVariables>;
export const TenantDialogCountDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TenantDialogCount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialogs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}}]}}]} as unknown as DocumentNode<TenantDialogCountQuery, TenantDialogCountQueryVariables>;
export const Seed001HistoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Seed001History"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"history"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HistoryPageFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HistoryPageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryConnection"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalMessages"}},{"kind":"Field","name":{"kind":"Name","value":"totalReasoning"}},{"kind":"Field","name":{"kind":"Name","value":"totalToolCalls"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"modelName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}}]}}]}}]} as unknown as DocumentNode<Seed001HistoryQuery, Seed001HistoryQueryVariables>;
export const ShareTestWriteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ShareTestWrite"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ShareTestWriteMutation, ShareTestWriteMutationVariables>;
export const ShareTestCreateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ShareTestCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateShareLinkInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createShareLink"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShareLink"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"responseId"}},{"kind":"Field","name":{"kind":"Name","value":"live"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ShareTestCreateMutation, ShareTestCreateMutationVariables>;
export const ShareTestRevokeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ShareTestRevoke"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"token"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeShareLink"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"token"},"value":{"kind":"Variable","name":{"kind":"Name","value":"token"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShareLink"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"live"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ShareTestRevokeMutation, ShareTestRevokeMutationVariables>;
export const OutageHistoryDeltaDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"OutageHistoryDelta"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"historyDelta"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dialogId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}}},{"kind":"Argument","name":{"kind":"Name","value":"afterSeq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"previousSeq"}}]}}]}}]} as unknown as DocumentNode<OutageHistoryDeltaSubscription, OutageHistoryDeltaSubscriptionVariables>;
export const OutageWriteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"OutageWrite"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<OutageWriteMutation, OutageWriteMutationVariables>;
export const WriteTurnDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"WriteTurn"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]}}]} as unknown as DocumentNode<WriteTurnMutation, WriteTurnMutationVariables>;
export const WriterCreateResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"WriterCreateResponse"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriterResponse"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriterError"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriterFieldErrors"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriterResponse"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriterError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriterFieldErrors"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]} as unknown as DocumentNode<WriterCreateResponseMutation, WriterCreateResponseMutationVariables>;
export const WriterAppendEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"WriterAppendEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AppendEventsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"appendEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriterResponse"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriterError"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriterFieldErrors"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriterResponse"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriterError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriterFieldErrors"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]} as unknown as DocumentNode<WriterAppendEventsMutation, WriterAppendEventsMutationVariables>;
export const WriterCompleteResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"WriterCompleteResponse"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CompleteResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"completeResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriterResponse"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriterError"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriterFieldErrors"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriterResponse"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriterError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriterFieldErrors"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]} as unknown as DocumentNode<WriterCompleteResponseMutation, WriterCompleteResponseMutationVariables>;
export const WriterInterruptResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"WriterInterruptResponse"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"InterruptResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"interruptResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriterResponse"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriterError"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"WriterFieldErrors"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriterResponse"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriterError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WriterFieldErrors"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]} as unknown as DocumentNode<WriterInterruptResponseMutation, WriterInterruptResponseMutationVariables>;
export const HistoryOfDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"HistoryOfDialog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"history"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}}]}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<HistoryOfDialogQuery, HistoryOfDialogQueryVariables>;
export const ImportDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Import"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ImportMessagesInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"importMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"lastSeq"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ImportMutation, ImportMutationVariables>;
export const FormatsResponseMessagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FormatsResponseMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"format"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"MessageFormat"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"r"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"format"},"value":{"kind":"Variable","name":{"kind":"Name","value":"format"}}},{"kind":"Argument","name":{"kind":"Name","value":"includeReasoning"},"value":{"kind":"Variable","name":{"kind":"Name","value":"r"}}}]}]}}]}}]} as unknown as DocumentNode<FormatsResponseMessagesQuery, FormatsResponseMessagesQueryVariables>;
export const FormatsDialogMessagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FormatsDialogMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"format"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"MessageFormat"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"r"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"format"},"value":{"kind":"Variable","name":{"kind":"Name","value":"format"}}},{"kind":"Argument","name":{"kind":"Name","value":"includeReasoning"},"value":{"kind":"Variable","name":{"kind":"Name","value":"r"}}},{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}}}]}]}}]}}]} as unknown as DocumentNode<FormatsDialogMessagesQuery, FormatsDialogMessagesQueryVariables>;
export const LiveHistoryDeltaDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"LiveHistoryDelta"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"historyDelta"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dialogId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}}},{"kind":"Argument","name":{"kind":"Name","value":"afterSeq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialogId"}},{"kind":"Field","name":{"kind":"Name","value":"responseId"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"previousSeq"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"Field","name":{"kind":"Name","value":"append"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}}]}}]} as unknown as DocumentNode<LiveHistoryDeltaSubscription, LiveHistoryDeltaSubscriptionVariables>;
export const ResumingHistoryDeltaDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ResumingHistoryDelta"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"historyDelta"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dialogId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}}},{"kind":"Argument","name":{"kind":"Name","value":"afterSeq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"previousSeq"}},{"kind":"Field","name":{"kind":"Name","value":"append"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ResumingHistoryDeltaSubscription, ResumingHistoryDeltaSubscriptionVariables>;
export const AgentStreamTextDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AgentStreamText"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"StreamTextInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"streamText"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPosition"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"responseId"}},{"kind":"Field","name":{"kind":"Name","value":"part"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"offset"}},{"kind":"Field","name":{"kind":"Name","value":"length"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextOffsetError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedOffset"}},{"kind":"Field","name":{"kind":"Name","value":"heldPart"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]}}]} as unknown as DocumentNode<AgentStreamTextMutation, AgentStreamTextMutationVariables>;
export const TextDeltasDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"TextDeltas"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"textOffsets"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TextOffsetInput"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"historyDelta"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dialogId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}}},{"kind":"Argument","name":{"kind":"Name","value":"afterSeq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}}},{"kind":"Argument","name":{"kind":"Name","value":"textOffsets"},"value":{"kind":"Variable","name":{"kind":"Name","value":"textOffsets"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialogId"}},{"kind":"Field","name":{"kind":"Name","value":"responseId"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"previousSeq"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"endsTextPart"}},{"kind":"Field","name":{"kind":"Name","value":"cleared"}},{"kind":"Field","name":{"kind":"Name","value":"responseDeleted"}},{"kind":"Field","name":{"kind":"Name","value":"text"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"responseId"}},{"kind":"Field","name":{"kind":"Name","value":"part"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"offset"}},{"kind":"Field","name":{"kind":"Name","value":"delta"}}]}},{"kind":"Field","name":{"kind":"Name","value":"append"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}}]}}]} as unknown as DocumentNode<TextDeltasSubscription, TextDeltasSubscriptionVariables>;
export const TenantIsolationCreateResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TenantIsolationCreateResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"input"},"value":{"kind":"ListValue","values":[{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"human"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"content"},"value":{"kind":"StringValue","value":"secret","block":false}}]}}]}]}},{"kind":"ObjectField","name":{"kind":"Name","value":"output"},"value":{"kind":"ListValue","values":[{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"ai"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"content"},"value":{"kind":"StringValue","value":"ok","block":false}}]}}]}]}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}}]}}]} as unknown as DocumentNode<TenantIsolationCreateResponseMutation, TenantIsolationCreateResponseMutationVariables>;
export const TenantIsolationCreateResponse2Document = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TenantIsolationCreateResponse2"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"d"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"dialogId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"d"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"input"},"value":{"kind":"ListValue","values":[{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"human"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"content"},"value":{"kind":"StringValue","value":"more","block":false}}]}}]}]}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<TenantIsolationCreateResponse2Mutation, TenantIsolationCreateResponse2MutationVariables>;
export const TenantIsolationUpdateDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TenantIsolationUpdateDialog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"d"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"d"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"title"},"value":{"kind":"StringValue","value":"A's dialog","block":false}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}}]} as unknown as DocumentNode<TenantIsolationUpdateDialogMutation, TenantIsolationUpdateDialogMutationVariables>;
export const TenantIsolationCreateDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TenantIsolationCreateDialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"title"},"value":{"kind":"StringValue","value":"B's","block":false}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<TenantIsolationCreateDialogMutation, TenantIsolationCreateDialogMutationVariables>;
export const TenantIsolationDialogHistoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TenantIsolationDialogHistory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"d"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"r"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"d"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"history"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"r"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalMessages"}}]}}]}}]}}]} as unknown as DocumentNode<TenantIsolationDialogHistoryQuery, TenantIsolationDialogHistoryQueryVariables>;
export const TenantIsolationDialogsEdgesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TenantIsolationDialogsEdges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialogs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<TenantIsolationDialogsEdgesQuery, TenantIsolationDialogsEdgesQueryVariables>;
export const TenantIsolationDialogTitleDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TenantIsolationDialogTitle"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"d"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"d"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"lastSeq"}},{"kind":"Field","name":{"kind":"Name","value":"responses"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<TenantIsolationDialogTitleQuery, TenantIsolationDialogTitleQueryVariables>;
export const TenantIsolationHistoryDeltaSeqDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"TenantIsolationHistoryDeltaSeq"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"d"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"historyDelta"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dialogId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"d"}}},{"kind":"Argument","name":{"kind":"Name","value":"afterSeq"},"value":{"kind":"IntValue","value":"0"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}}]}}]}}]} as unknown as DocumentNode<TenantIsolationHistoryDeltaSeqSubscription, TenantIsolationHistoryDeltaSeqSubscriptionVariables>;
export const TenantIsolationResponseUpdatedIdDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"TenantIsolationResponseUpdatedId"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"r"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"responseUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"r"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<TenantIsolationResponseUpdatedIdSubscription, TenantIsolationResponseUpdatedIdSubscriptionVariables>;
export const TenantIsolationCreateResponse3Document = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TenantIsolationCreateResponse3"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"c"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"StringValue","value":"shared","block":false}},{"kind":"ObjectField","name":{"kind":"Name","value":"input"},"value":{"kind":"ListValue","values":[{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"human"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"content"},"value":{"kind":"Variable","name":{"kind":"Name","value":"c"}}}]}}]}]}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<TenantIsolationCreateResponse3Mutation, TenantIsolationCreateResponse3MutationVariables>;
export const PoolShareWriteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PoolShareWrite"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<PoolShareWriteMutation, PoolShareWriteMutationVariables>;
export const PoolShareDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PoolShareDialog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<PoolShareDialogQuery, PoolShareDialogQueryVariables>;
export const TokenBudgetResponseMessagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TokenBudgetResponseMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"chat"},"name":{"kind":"Name","value":"messages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"format"},"value":{"kind":"EnumValue","value":"OPENAI_CHAT"}},{"kind":"Argument","name":{"kind":"Name","value":"maxTokens"},"value":{"kind":"IntValue","value":"200"}},{"kind":"Argument","name":{"kind":"Name","value":"tokenizer"},"value":{"kind":"EnumValue","value":"CL100K_BASE"}}]},{"kind":"Field","alias":{"kind":"Name","value":"anthropic"},"name":{"kind":"Name","value":"messages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"format"},"value":{"kind":"EnumValue","value":"ANTHROPIC_MESSAGES"}},{"kind":"Argument","name":{"kind":"Name","value":"maxTokens"},"value":{"kind":"IntValue","value":"200"}}]},{"kind":"Field","alias":{"kind":"Name","value":"ui"},"name":{"kind":"Name","value":"messages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"format"},"value":{"kind":"EnumValue","value":"AI_SDK_UI"}},{"kind":"Argument","name":{"kind":"Name","value":"maxTokens"},"value":{"kind":"IntValue","value":"200"}}]},{"kind":"Field","alias":{"kind":"Name","value":"fitted"},"name":{"kind":"Name","value":"fittedMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"format"},"value":{"kind":"EnumValue","value":"OPENAI_RESPONSES"}},{"kind":"Argument","name":{"kind":"Name","value":"maxTokens"},"value":{"kind":"IntValue","value":"200"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messages"}},{"kind":"Field","name":{"kind":"Name","value":"tokenCount"}},{"kind":"Field","name":{"kind":"Name","value":"droppedEventCount"}},{"kind":"Field","name":{"kind":"Name","value":"droppedThroughSeq"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"all"},"name":{"kind":"Name","value":"fittedMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"format"},"value":{"kind":"EnumValue","value":"OPENAI_CHAT"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tokenCount"}},{"kind":"Field","name":{"kind":"Name","value":"droppedEventCount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tokenCount"}},{"kind":"Field","alias":{"kind":"Name","value":"cl100k"},"name":{"kind":"Name","value":"tokenCount"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"tokenizer"},"value":{"kind":"EnumValue","value":"CL100K_BASE"}}]}]}}]}}]}}]} as unknown as DocumentNode<TokenBudgetResponseMessagesQuery, TokenBudgetResponseMessagesQueryVariables>;
export const TokenBudgetResponseFittedMessagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TokenBudgetResponseFittedMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"max"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fittedMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"format"},"value":{"kind":"EnumValue","value":"OPENAI_CHAT"}},{"kind":"Argument","name":{"kind":"Name","value":"maxTokens"},"value":{"kind":"Variable","name":{"kind":"Name","value":"max"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messages"}},{"kind":"Field","name":{"kind":"Name","value":"tokenCount"}},{"kind":"Field","name":{"kind":"Name","value":"droppedEventCount"}},{"kind":"Field","name":{"kind":"Name","value":"droppedThroughSeq"}}]}}]}}]}}]} as unknown as DocumentNode<TokenBudgetResponseFittedMessagesQuery, TokenBudgetResponseFittedMessagesQueryVariables>;
export const TokenBudgetResponseMessages2Document = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TokenBudgetResponseMessages2"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"format"},"value":{"kind":"EnumValue","value":"OPENAI_CHAT"}},{"kind":"Argument","name":{"kind":"Name","value":"maxTokens"},"value":{"kind":"IntValue","value":"0"}}]}]}}]}}]} as unknown as DocumentNode<TokenBudgetResponseMessages2Query, TokenBudgetResponseMessages2QueryVariables>;
export const TurnAlwaysEndsStartDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TurnAlwaysEndsStart"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"model"},"value":{"kind":"StringValue","value":"agent","block":false}},{"kind":"ObjectField","name":{"kind":"Name","value":"status"},"value":{"kind":"EnumValue","value":"IN_PROGRESS"}},{"kind":"ObjectField","name":{"kind":"Name","value":"input"},"value":{"kind":"ListValue","values":[{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"human"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"content"},"value":{"kind":"StringValue","value":"go","block":false}}]}}]}]}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<TurnAlwaysEndsStartMutation, TurnAlwaysEndsStartMutationVariables>;
export const TurnAlwaysEndsAppendDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TurnAlwaysEndsAppend"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"appendEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"events"},"value":{"kind":"ListValue","values":[{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"ai"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"content"},"value":{"kind":"StringValue","value":"still here","block":false}}]}}]}]}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}}]} as unknown as DocumentNode<TurnAlwaysEndsAppendMutation, TurnAlwaysEndsAppendMutationVariables>;
export const UpstreamMetricsGenerateResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpstreamMetricsGenerateResponse"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"GenerateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"generateResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<UpstreamMetricsGenerateResponseMutation, UpstreamMetricsGenerateResponseMutationVariables>;
export const UpstreamMetricsResponseStatusDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"UpstreamMetricsResponseStatus"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"responseUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<UpstreamMetricsResponseStatusSubscription, UpstreamMetricsResponseStatusSubscriptionVariables>;
export const WebWorkbenchWriteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"WebWorkbenchWrite"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<WebWorkbenchWriteMutation, WebWorkbenchWriteMutationVariables>;
export const WebWorkbenchUpdateDialogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"WebWorkbenchUpdateDialog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"title"},"value":{"kind":"StringValue","value":"Bergen forecast","block":false}},{"kind":"ObjectField","name":{"kind":"Name","value":"metadata"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"team"},"value":{"kind":"StringValue","value":"weather","block":false}}]}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}}]} as unknown as DocumentNode<WebWorkbenchUpdateDialogMutation, WebWorkbenchUpdateDialogMutationVariables>;
export const WebWorkbenchDialogTitleDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebWorkbenchDialogTitle"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]} as unknown as DocumentNode<WebWorkbenchDialogTitleQuery, WebWorkbenchDialogTitleQueryVariables>;
export const WebWorkbenchDialogForkedFromDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebWorkbenchDialogForkedFrom"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"forkedFrom"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<WebWorkbenchDialogForkedFromQuery, WebWorkbenchDialogForkedFromQueryVariables>;
export const WriteAnswerCreateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"WriteAnswerCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WrittenResponseFields"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WrittenResponseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"eventCount"}}]}}]}}]} as unknown as DocumentNode<WriteAnswerCreateMutation, WriteAnswerCreateMutationVariables>;
export const WriteAnswerReadDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WriteAnswerRead"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WrittenResponseFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WrittenResponseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"eventCount"}}]}}]}}]} as unknown as DocumentNode<WriteAnswerReadQuery, WriteAnswerReadQueryVariables>;
export const WriteAnswerCreateResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"WriteAnswerCreateResponse"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"output"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<WriteAnswerCreateResponseMutation, WriteAnswerCreateResponseMutationVariables>;
export const ToolApprovalsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ToolApprovals"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"toolApprovals"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<ToolApprovalsQuery, ToolApprovalsQueryVariables>;
export const ApproveToolCallDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ApproveToolCall"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ApproveToolCallInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"approveToolCall"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ApproveToolCallMutation, ApproveToolCallMutationVariables>;
export const CancelResponseFromViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CancelResponseFromViewer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cancelResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<CancelResponseFromViewerMutation, CancelResponseFromViewerMutationVariables>;
export const TitleDialogFromViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TitleDialogFromViewer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"model"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dialogId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}}},{"kind":"Argument","name":{"kind":"Name","value":"model"},"value":{"kind":"Variable","name":{"kind":"Name","value":"model"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<TitleDialogFromViewerMutation, TitleDialogFromViewerMutationVariables>;
export const RecentModelsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RecentModels"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"models"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"configured"}},{"kind":"Field","name":{"kind":"Name","value":"defaultModel"}}]}},{"kind":"Field","name":{"kind":"Name","value":"dialogs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"50"}},{"kind":"Argument","name":{"kind":"Name","value":"orderBy"},"value":{"kind":"EnumValue","value":"RECENTLY_UPDATED"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"model"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<RecentModelsQuery, RecentModelsQueryVariables>;
export const ImportChatsFromViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ImportChatsFromViewer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ImportChatsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"importChats"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImportChatsPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"format"}},{"kind":"Field","name":{"kind":"Name","value":"conversations"}},{"kind":"Field","name":{"kind":"Name","value":"imported"}},{"kind":"Field","name":{"kind":"Name","value":"skipped"}},{"kind":"Field","name":{"kind":"Name","value":"dialogs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ImportChatsFromViewerMutation, ImportChatsFromViewerMutationVariables>;
export const ShareLinksDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ShareLinks"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"shareLinks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"responseId"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]}}]} as unknown as DocumentNode<ShareLinksQuery, ShareLinksQueryVariables>;
export const CreateShareLinkFromViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateShareLinkFromViewer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateShareLinkInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createShareLink"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShareLink"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"path"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<CreateShareLinkFromViewerMutation, CreateShareLinkFromViewerMutationVariables>;
export const RevokeShareLinkFromViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RevokeShareLinkFromViewer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"token"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeShareLink"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"token"},"value":{"kind":"Variable","name":{"kind":"Name","value":"token"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShareLink"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<RevokeShareLinkFromViewerMutation, RevokeShareLinkFromViewerMutationVariables>;
export const SearchEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SearchEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"query"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"SearchFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"search"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"query"},"value":{"kind":"Variable","name":{"kind":"Name","value":"query"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialogId"}},{"kind":"Field","name":{"kind":"Name","value":"responseId"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"snippetParts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"match"}}]}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"preview"}}]}},{"kind":"Field","name":{"kind":"Name","value":"event"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"type"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<SearchEventsQuery, SearchEventsQueryVariables>;
export const DialogPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DialogPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"SearchFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"orderBy"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DialogOrder"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialogs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"orderBy"},"value":{"kind":"Variable","name":{"kind":"Name","value":"orderBy"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"preview"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"eventCount"}},{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<DialogPageQuery, DialogPageQueryVariables>;
export const DialogDetailsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DialogDetails"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"preview"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"head"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"forkedFrom"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"branches"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]} as unknown as DocumentNode<DialogDetailsQuery, DialogDetailsQueryVariables>;
export const BranchOutlineDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"BranchOutline"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"a"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"b"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"compareBranches"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"a"},"value":{"kind":"Variable","name":{"kind":"Name","value":"a"}}},{"kind":"Argument","name":{"kind":"Name","value":"b"},"value":{"kind":"Variable","name":{"kind":"Name","value":"b"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"commonAncestor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}}]}},{"kind":"Field","name":{"kind":"Name","value":"b"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"preview"}},{"kind":"Field","name":{"kind":"Name","value":"eventCount"}}]}}]}}]}}]} as unknown as DocumentNode<BranchOutlineQuery, BranchOutlineQueryVariables>;
export const CompareBranchesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CompareBranches"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"a"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"b"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"compareBranches"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"a"},"value":{"kind":"Variable","name":{"kind":"Name","value":"a"}}},{"kind":"Argument","name":{"kind":"Name","value":"b"},"value":{"kind":"Variable","name":{"kind":"Name","value":"b"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"commonAncestor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}}]}},{"kind":"Field","name":{"kind":"Name","value":"shared"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalMessages"}}]}},{"kind":"Field","name":{"kind":"Name","value":"a"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"BranchSideFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"b"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"BranchSideFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContentPartFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContentPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUrlPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AudioPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"format"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FilePart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fileId"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HistoryEventFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaseHistoryEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"response"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HumanEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AiEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContentPartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"modelName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"BranchSideFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BranchSide"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tip"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"Field","name":{"kind":"Name","value":"preview"}},{"kind":"Field","name":{"kind":"Name","value":"eventCount"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}}]}},{"kind":"Field","name":{"kind":"Name","value":"events"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HistoryEventFields"}}]}}]}}]} as unknown as DocumentNode<CompareBranchesQuery, CompareBranchesQueryVariables>;
export const ExportMessagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ExportMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"format"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"MessageFormat"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"messages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"format"},"value":{"kind":"Variable","name":{"kind":"Name","value":"format"}}}]}]}}]}}]} as unknown as DocumentNode<ExportMessagesQuery, ExportMessagesQueryVariables>;
export const ExportTranscriptDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ExportTranscript"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"transcript"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"responseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}}}]}]}}]}}]} as unknown as DocumentNode<ExportTranscriptQuery, ExportTranscriptQueryVariables>;
export const ForkDialogFromViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ForkDialogFromViewer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ForkDialogInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"forkDialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Dialog"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ForkDialogFromViewerMutation, ForkDialogFromViewerMutationVariables>;
export const DialogUsageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DialogUsage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"withBranch"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dialog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dialogId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}},{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"cachedTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"cost"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"response"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"responseId"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"withBranch"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"contextUsage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}},{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"cachedTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"cost"}}]}}]}}]}}]} as unknown as DocumentNode<DialogUsageQuery, DialogUsageQueryVariables>;
export const UsageByDayAndModelDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"UsageByDayAndModel"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Date"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Date"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"usage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"groupBy"},"value":{"kind":"ListValue","values":[{"kind":"EnumValue","value":"DAY"},{"kind":"EnumValue","value":"MODEL"}]}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"rows"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"day"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"responses"}},{"kind":"Field","name":{"kind":"Name","value":"unpricedTokens"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}},{"kind":"Field","name":{"kind":"Name","value":"cost"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"total"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalTokens"}},{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"cost"}}]}}]}}]}}]} as unknown as DocumentNode<UsageByDayAndModelQuery, UsageByDayAndModelQueryVariables>;