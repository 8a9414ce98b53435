/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends " $fragmentName" | "__typename" ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from "@graphql-typed-document-node/core";
export type AppendEventsInput = {
  /** Output events, in order. */
  events: Array<HistoryEventInput>;
  /** The dialog's last seq as the caller knows it; if another write came first, a ConflictError. */
  expectedSeq?: number | null | undefined;
  /** An IN_PROGRESS response. */
  responseId: string | number;
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

export type DeleteDialogInput = {
  id: string | number;
};

export type HistoryEventInput =
  | { ai: MessageEventInput; human?: never; reasoning?: never; system?: never; toolCall?: never; toolResult?: never }
  | { ai?: never; human: MessageEventInput; reasoning?: never; system?: never; toolCall?: never; toolResult?: never }
  | { ai?: never; human?: never; reasoning: ReasoningEventInput; system?: never; toolCall?: never; toolResult?: never }
  | { ai?: never; human?: never; reasoning?: never; system: MessageEventInput; toolCall?: never; toolResult?: never }
  | { ai?: never; human?: never; reasoning?: never; system?: never; toolCall: ToolCallEventInput; toolResult?: never }
  | {
      ai?: never;
      human?: never;
      reasoning?: never;
      system?: never;
      toolCall?: never;
      toolResult: ToolResultEventInput;
    };

export type HistoryEventType = "AI" | "HUMAN" | "REASONING" | "SYSTEM" | "TOOL_CALL" | "TOOL_RESULT";

/** What an interrupted response keeps of the answer it was writing (seed 004). */
export type InterruptBehavior =
  /** Keep nothing; the response ends CANCELLED. */
  | "DISCARD"
  /** Keep it with metadata {interrupted: true}; the response ends INCOMPLETE. */
  | "SAVE_MARKED"
  /** Keep the partial text as an AI message; the response ends INCOMPLETE. */
  | "SAVE_PARTIAL";

export type InterruptResponseInput = {
  behavior: InterruptBehavior;
  /** The answer so far; required unless behavior is DISCARD. */
  partialText?: string | null | undefined;
  responseId: string | number;
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

export type ReasoningEventInput = {
  /** Required. */
  content?: string | null | undefined;
  /** When it happened, if not now. */
  createdAt?: string | null | undefined;
  /** A JSON object kept with the event. */
  metadata?: unknown;
  modelName?: string | null | undefined;
};

export type ResponseStatus = "CANCELLED" | "COMPLETED" | "FAILED" | "INCOMPLETE" | "IN_PROGRESS";

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
  inputTokens?: number | null | undefined;
  outputTokens?: number | null | undefined;
  reasoningTokens?: number | null | undefined;
  totalTokens?: number | null | undefined;
};

type ContentPartFields_AudioPart_Fragment = { __typename: "AudioPart"; format: string };

type ContentPartFields_FilePart_Fragment = { __typename: "FilePart"; fileId: string | null; filename: string | null };

type ContentPartFields_ImageUrlPart_Fragment = { __typename: "ImageUrlPart"; url: string; detail: string | null };

type ContentPartFields_TextPart_Fragment = { __typename: "TextPart"; text: string };

export type ContentPartFieldsFragment =
  | ContentPartFields_AudioPart_Fragment
  | ContentPartFields_FilePart_Fragment
  | ContentPartFields_ImageUrlPart_Fragment
  | ContentPartFields_TextPart_Fragment;

type HistoryEventFields_AiEvent_Fragment = {
  __typename: "AiEvent";
  id: string;
  seq: number;
  type: HistoryEventType;
  createdAt: string;
  metadata: Record<string, unknown>;
  content: string;
  response: { id: string };
  parts: Array<
    | { __typename: "AudioPart"; format: string }
    | { __typename: "FilePart"; fileId: string | null; filename: string | null }
    | { __typename: "ImageUrlPart"; url: string; detail: string | null }
    | { __typename: "TextPart"; text: string }
  > | null;
};

type HistoryEventFields_HumanEvent_Fragment = {
  __typename: "HumanEvent";
  id: string;
  seq: number;
  type: HistoryEventType;
  createdAt: string;
  metadata: Record<string, unknown>;
  content: string;
  response: { id: string };
  parts: Array<
    | { __typename: "AudioPart"; format: string }
    | { __typename: "FilePart"; fileId: string | null; filename: string | null }
    | { __typename: "ImageUrlPart"; url: string; detail: string | null }
    | { __typename: "TextPart"; text: string }
  > | null;
};

type HistoryEventFields_ReasoningEvent_Fragment = {
  __typename: "ReasoningEvent";
  id: string;
  seq: number;
  type: HistoryEventType;
  createdAt: string;
  metadata: Record<string, unknown>;
  content: string;
  modelName: string | null;
  response: { id: string };
};

type HistoryEventFields_SystemEvent_Fragment = {
  __typename: "SystemEvent";
  id: string;
  seq: number;
  type: HistoryEventType;
  createdAt: string;
  metadata: Record<string, unknown>;
  content: string;
  response: { id: string };
  parts: Array<
    | { __typename: "AudioPart"; format: string }
    | { __typename: "FilePart"; fileId: string | null; filename: string | null }
    | { __typename: "ImageUrlPart"; url: string; detail: string | null }
    | { __typename: "TextPart"; text: string }
  > | null;
};

type HistoryEventFields_ToolCallEvent_Fragment = {
  __typename: "ToolCallEvent";
  id: string;
  seq: number;
  type: HistoryEventType;
  createdAt: string;
  metadata: Record<string, unknown>;
  callId: string;
  toolName: string;
  args: Record<string, unknown>;
  response: { id: string };
};

type HistoryEventFields_ToolResultEvent_Fragment = {
  __typename: "ToolResultEvent";
  id: string;
  seq: number;
  type: HistoryEventType;
  createdAt: string;
  metadata: Record<string, unknown>;
  callId: string;
  toolName: string;
  content: string;
  isError: boolean;
  response: { id: string };
};

export type HistoryEventFieldsFragment =
  | HistoryEventFields_AiEvent_Fragment
  | HistoryEventFields_HumanEvent_Fragment
  | HistoryEventFields_ReasoningEvent_Fragment
  | HistoryEventFields_SystemEvent_Fragment
  | HistoryEventFields_ToolCallEvent_Fragment
  | HistoryEventFields_ToolResultEvent_Fragment;

export type ResponseSummaryFragment = {
  id: string;
  status: ResponseStatus;
  model: string | null;
  depth: number;
  createdAt: string;
  completedAt: string | null;
  error: unknown;
  metadata: Record<string, unknown>;
  usage: {
    inputTokens: number | null;
    outputTokens: number | null;
    reasoningTokens: number | null;
    totalTokens: number | null;
  } | null;
  previousResponse: { id: string } | null;
};

export type DialogSummaryFragment = {
  id: string;
  title: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  lastSeq: number;
  head: { id: string; status: ResponseStatus; model: string | null } | null;
};

type WriteErrorFields_ConflictError_Fragment = { __typename: "ConflictError"; message: string; code: string };

type WriteErrorFields_NotFoundError_Fragment = { __typename: "NotFoundError"; message: string; code: string };

type WriteErrorFields_ValidationError_Fragment = {
  __typename: "ValidationError";
  message: string;
  code: string;
  fieldErrors: Array<{ path: Array<string>; message: string }>;
};

export type WriteErrorFieldsFragment =
  | WriteErrorFields_ConflictError_Fragment
  | WriteErrorFields_NotFoundError_Fragment
  | WriteErrorFields_ValidationError_Fragment;

export type CreateDialogMutationVariables = Exact<{
  input: CreateDialogInput;
}>;

export type CreateDialogMutation = {
  createDialog:
    | { __typename: "ConflictError"; message: string; code: string }
    | {
        __typename: "Dialog";
        id: string;
        title: string | null;
        metadata: Record<string, unknown>;
        createdAt: string;
        updatedAt: string;
        lastSeq: number;
        head: { id: string; status: ResponseStatus; model: string | null } | null;
      }
    | { __typename: "NotFoundError"; message: string; code: string }
    | {
        __typename: "ValidationError";
        message: string;
        code: string;
        fieldErrors: Array<{ path: Array<string>; message: string }>;
      };
};

export type UpdateDialogMutationVariables = Exact<{
  input: UpdateDialogInput;
}>;

export type UpdateDialogMutation = {
  updateDialog:
    | { __typename: "ConflictError"; message: string; code: string }
    | {
        __typename: "Dialog";
        id: string;
        title: string | null;
        metadata: Record<string, unknown>;
        createdAt: string;
        updatedAt: string;
        lastSeq: number;
        head: { id: string; status: ResponseStatus; model: string | null } | null;
      }
    | { __typename: "NotFoundError"; message: string; code: string }
    | {
        __typename: "ValidationError";
        message: string;
        code: string;
        fieldErrors: Array<{ path: Array<string>; message: string }>;
      };
};

export type DeleteDialogMutationVariables = Exact<{
  input: DeleteDialogInput;
}>;

export type DeleteDialogMutation = {
  deleteDialog:
    | { __typename: "ConflictError"; message: string; code: string }
    | { __typename: "DeleteDialogPayload"; id: string }
    | { __typename: "NotFoundError"; message: string; code: string }
    | {
        __typename: "ValidationError";
        message: string;
        code: string;
        fieldErrors: Array<{ path: Array<string>; message: string }>;
      };
};

export type CreateResponseMutationVariables = Exact<{
  input: CreateResponseInput;
}>;

export type CreateResponseMutation = {
  createResponse:
    | { __typename: "ConflictError"; message: string; code: string }
    | { __typename: "NotFoundError"; message: string; code: string }
    | {
        __typename: "Response";
        id: string;
        status: ResponseStatus;
        model: string | null;
        depth: number;
        createdAt: string;
        completedAt: string | null;
        error: unknown;
        metadata: Record<string, unknown>;
        dialog: { id: string };
        input: Array<
          | {
              __typename: "AiEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              response: { id: string };
              parts: Array<
                | { __typename: "AudioPart"; format: string }
                | { __typename: "FilePart"; fileId: string | null; filename: string | null }
                | { __typename: "ImageUrlPart"; url: string; detail: string | null }
                | { __typename: "TextPart"; text: string }
              > | null;
            }
          | {
              __typename: "HumanEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              response: { id: string };
              parts: Array<
                | { __typename: "AudioPart"; format: string }
                | { __typename: "FilePart"; fileId: string | null; filename: string | null }
                | { __typename: "ImageUrlPart"; url: string; detail: string | null }
                | { __typename: "TextPart"; text: string }
              > | null;
            }
          | {
              __typename: "ReasoningEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              modelName: string | null;
              response: { id: string };
            }
          | {
              __typename: "SystemEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              response: { id: string };
              parts: Array<
                | { __typename: "AudioPart"; format: string }
                | { __typename: "FilePart"; fileId: string | null; filename: string | null }
                | { __typename: "ImageUrlPart"; url: string; detail: string | null }
                | { __typename: "TextPart"; text: string }
              > | null;
            }
          | {
              __typename: "ToolCallEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              callId: string;
              toolName: string;
              args: Record<string, unknown>;
              response: { id: string };
            }
          | {
              __typename: "ToolResultEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              callId: string;
              toolName: string;
              content: string;
              isError: boolean;
              response: { id: string };
            }
        >;
        output: Array<
          | {
              __typename: "AiEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              response: { id: string };
              parts: Array<
                | { __typename: "AudioPart"; format: string }
                | { __typename: "FilePart"; fileId: string | null; filename: string | null }
                | { __typename: "ImageUrlPart"; url: string; detail: string | null }
                | { __typename: "TextPart"; text: string }
              > | null;
            }
          | {
              __typename: "HumanEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              response: { id: string };
              parts: Array<
                | { __typename: "AudioPart"; format: string }
                | { __typename: "FilePart"; fileId: string | null; filename: string | null }
                | { __typename: "ImageUrlPart"; url: string; detail: string | null }
                | { __typename: "TextPart"; text: string }
              > | null;
            }
          | {
              __typename: "ReasoningEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              modelName: string | null;
              response: { id: string };
            }
          | {
              __typename: "SystemEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              response: { id: string };
              parts: Array<
                | { __typename: "AudioPart"; format: string }
                | { __typename: "FilePart"; fileId: string | null; filename: string | null }
                | { __typename: "ImageUrlPart"; url: string; detail: string | null }
                | { __typename: "TextPart"; text: string }
              > | null;
            }
          | {
              __typename: "ToolCallEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              callId: string;
              toolName: string;
              args: Record<string, unknown>;
              response: { id: string };
            }
          | {
              __typename: "ToolResultEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              callId: string;
              toolName: string;
              content: string;
              isError: boolean;
              response: { id: string };
            }
        >;
        usage: {
          inputTokens: number | null;
          outputTokens: number | null;
          reasoningTokens: number | null;
          totalTokens: number | null;
        } | null;
        previousResponse: { id: string } | null;
      }
    | {
        __typename: "ValidationError";
        message: string;
        code: string;
        fieldErrors: Array<{ path: Array<string>; message: string }>;
      };
};

export type AppendEventsMutationVariables = Exact<{
  input: AppendEventsInput;
}>;

export type AppendEventsMutation = {
  appendEvents:
    | { __typename: "ConflictError"; message: string; code: string }
    | { __typename: "NotFoundError"; message: string; code: string }
    | {
        __typename: "Response";
        id: string;
        status: ResponseStatus;
        model: string | null;
        depth: number;
        createdAt: string;
        completedAt: string | null;
        error: unknown;
        metadata: Record<string, unknown>;
        output: Array<
          | {
              __typename: "AiEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              response: { id: string };
              parts: Array<
                | { __typename: "AudioPart"; format: string }
                | { __typename: "FilePart"; fileId: string | null; filename: string | null }
                | { __typename: "ImageUrlPart"; url: string; detail: string | null }
                | { __typename: "TextPart"; text: string }
              > | null;
            }
          | {
              __typename: "HumanEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              response: { id: string };
              parts: Array<
                | { __typename: "AudioPart"; format: string }
                | { __typename: "FilePart"; fileId: string | null; filename: string | null }
                | { __typename: "ImageUrlPart"; url: string; detail: string | null }
                | { __typename: "TextPart"; text: string }
              > | null;
            }
          | {
              __typename: "ReasoningEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              modelName: string | null;
              response: { id: string };
            }
          | {
              __typename: "SystemEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              response: { id: string };
              parts: Array<
                | { __typename: "AudioPart"; format: string }
                | { __typename: "FilePart"; fileId: string | null; filename: string | null }
                | { __typename: "ImageUrlPart"; url: string; detail: string | null }
                | { __typename: "TextPart"; text: string }
              > | null;
            }
          | {
              __typename: "ToolCallEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              callId: string;
              toolName: string;
              args: Record<string, unknown>;
              response: { id: string };
            }
          | {
              __typename: "ToolResultEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              callId: string;
              toolName: string;
              content: string;
              isError: boolean;
              response: { id: string };
            }
        >;
        usage: {
          inputTokens: number | null;
          outputTokens: number | null;
          reasoningTokens: number | null;
          totalTokens: number | null;
        } | null;
        previousResponse: { id: string } | null;
      }
    | {
        __typename: "ValidationError";
        message: string;
        code: string;
        fieldErrors: Array<{ path: Array<string>; message: string }>;
      };
};

export type CompleteResponseMutationVariables = Exact<{
  input: CompleteResponseInput;
}>;

export type CompleteResponseMutation = {
  completeResponse:
    | { __typename: "ConflictError"; message: string; code: string }
    | { __typename: "NotFoundError"; message: string; code: string }
    | {
        __typename: "Response";
        id: string;
        status: ResponseStatus;
        model: string | null;
        depth: number;
        createdAt: string;
        completedAt: string | null;
        error: unknown;
        metadata: Record<string, unknown>;
        usage: {
          inputTokens: number | null;
          outputTokens: number | null;
          reasoningTokens: number | null;
          totalTokens: number | null;
        } | null;
        previousResponse: { id: string } | null;
      }
    | {
        __typename: "ValidationError";
        message: string;
        code: string;
        fieldErrors: Array<{ path: Array<string>; message: string }>;
      };
};

export type InterruptResponseMutationVariables = Exact<{
  input: InterruptResponseInput;
}>;

export type InterruptResponseMutation = {
  interruptResponse:
    | { __typename: "ConflictError"; message: string; code: string }
    | { __typename: "NotFoundError"; message: string; code: string }
    | {
        __typename: "Response";
        id: string;
        status: ResponseStatus;
        model: string | null;
        depth: number;
        createdAt: string;
        completedAt: string | null;
        error: unknown;
        metadata: Record<string, unknown>;
        output: Array<
          | {
              __typename: "AiEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              response: { id: string };
              parts: Array<
                | { __typename: "AudioPart"; format: string }
                | { __typename: "FilePart"; fileId: string | null; filename: string | null }
                | { __typename: "ImageUrlPart"; url: string; detail: string | null }
                | { __typename: "TextPart"; text: string }
              > | null;
            }
          | {
              __typename: "HumanEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              response: { id: string };
              parts: Array<
                | { __typename: "AudioPart"; format: string }
                | { __typename: "FilePart"; fileId: string | null; filename: string | null }
                | { __typename: "ImageUrlPart"; url: string; detail: string | null }
                | { __typename: "TextPart"; text: string }
              > | null;
            }
          | {
              __typename: "ReasoningEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              modelName: string | null;
              response: { id: string };
            }
          | {
              __typename: "SystemEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              response: { id: string };
              parts: Array<
                | { __typename: "AudioPart"; format: string }
                | { __typename: "FilePart"; fileId: string | null; filename: string | null }
                | { __typename: "ImageUrlPart"; url: string; detail: string | null }
                | { __typename: "TextPart"; text: string }
              > | null;
            }
          | {
              __typename: "ToolCallEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              callId: string;
              toolName: string;
              args: Record<string, unknown>;
              response: { id: string };
            }
          | {
              __typename: "ToolResultEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              callId: string;
              toolName: string;
              content: string;
              isError: boolean;
              response: { id: string };
            }
        >;
        usage: {
          inputTokens: number | null;
          outputTokens: number | null;
          reasoningTokens: number | null;
          totalTokens: number | null;
        } | null;
        previousResponse: { id: string } | null;
      }
    | {
        __typename: "ValidationError";
        message: string;
        code: string;
        fieldErrors: Array<{ path: Array<string>; message: string }>;
      };
};

export type DialogsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;

export type DialogsQuery = {
  dialogs: {
    edges: Array<{
      cursor: string;
      node: {
        id: string;
        title: string | null;
        metadata: Record<string, unknown>;
        createdAt: string;
        updatedAt: string;
        lastSeq: number;
        head: { id: string; status: ResponseStatus; model: string | null } | null;
      };
    }>;
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
};

export type DialogQueryVariables = Exact<{
  id: string | number;
}>;

export type DialogQuery = {
  dialog: {
    id: string;
    title: string | null;
    metadata: Record<string, unknown>;
    createdAt: string;
    updatedAt: string;
    lastSeq: number;
    forkedFrom: { id: string } | null;
    branches: Array<{
      id: string;
      status: ResponseStatus;
      model: string | null;
      depth: number;
      createdAt: string;
      completedAt: string | null;
      error: unknown;
      metadata: Record<string, unknown>;
      usage: {
        inputTokens: number | null;
        outputTokens: number | null;
        reasoningTokens: number | null;
        totalTokens: number | null;
      } | null;
      previousResponse: { id: string } | null;
    }>;
    head: { id: string; status: ResponseStatus; model: string | null } | null;
  } | null;
};

export type DialogHistoryQueryVariables = Exact<{
  dialogId: string | number;
  responseId?: string | number | null | undefined;
  types?: Array<HistoryEventType> | HistoryEventType | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;

export type DialogHistoryQuery = {
  dialog: {
    id: string;
    history: {
      totalMessages: number;
      totalReasoning: number;
      totalToolCalls: number;
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
      edges: Array<{
        node:
          | {
              __typename: "AiEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              response: {
                id: string;
                status: ResponseStatus;
                model: string | null;
                depth: number;
                createdAt: string;
                completedAt: string | null;
                error: unknown;
                metadata: Record<string, unknown>;
                usage: {
                  inputTokens: number | null;
                  outputTokens: number | null;
                  reasoningTokens: number | null;
                  totalTokens: number | null;
                } | null;
                previousResponse: { id: string } | null;
              };
              parts: Array<
                | { __typename: "AudioPart"; format: string }
                | { __typename: "FilePart"; fileId: string | null; filename: string | null }
                | { __typename: "ImageUrlPart"; url: string; detail: string | null }
                | { __typename: "TextPart"; text: string }
              > | null;
            }
          | {
              __typename: "HumanEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              response: {
                id: string;
                status: ResponseStatus;
                model: string | null;
                depth: number;
                createdAt: string;
                completedAt: string | null;
                error: unknown;
                metadata: Record<string, unknown>;
                usage: {
                  inputTokens: number | null;
                  outputTokens: number | null;
                  reasoningTokens: number | null;
                  totalTokens: number | null;
                } | null;
                previousResponse: { id: string } | null;
              };
              parts: Array<
                | { __typename: "AudioPart"; format: string }
                | { __typename: "FilePart"; fileId: string | null; filename: string | null }
                | { __typename: "ImageUrlPart"; url: string; detail: string | null }
                | { __typename: "TextPart"; text: string }
              > | null;
            }
          | {
              __typename: "ReasoningEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              modelName: string | null;
              response: {
                id: string;
                status: ResponseStatus;
                model: string | null;
                depth: number;
                createdAt: string;
                completedAt: string | null;
                error: unknown;
                metadata: Record<string, unknown>;
                usage: {
                  inputTokens: number | null;
                  outputTokens: number | null;
                  reasoningTokens: number | null;
                  totalTokens: number | null;
                } | null;
                previousResponse: { id: string } | null;
              };
            }
          | {
              __typename: "SystemEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              response: {
                id: string;
                status: ResponseStatus;
                model: string | null;
                depth: number;
                createdAt: string;
                completedAt: string | null;
                error: unknown;
                metadata: Record<string, unknown>;
                usage: {
                  inputTokens: number | null;
                  outputTokens: number | null;
                  reasoningTokens: number | null;
                  totalTokens: number | null;
                } | null;
                previousResponse: { id: string } | null;
              };
              parts: Array<
                | { __typename: "AudioPart"; format: string }
                | { __typename: "FilePart"; fileId: string | null; filename: string | null }
                | { __typename: "ImageUrlPart"; url: string; detail: string | null }
                | { __typename: "TextPart"; text: string }
              > | null;
            }
          | {
              __typename: "ToolCallEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              callId: string;
              toolName: string;
              args: Record<string, unknown>;
              response: {
                id: string;
                status: ResponseStatus;
                model: string | null;
                depth: number;
                createdAt: string;
                completedAt: string | null;
                error: unknown;
                metadata: Record<string, unknown>;
                usage: {
                  inputTokens: number | null;
                  outputTokens: number | null;
                  reasoningTokens: number | null;
                  totalTokens: number | null;
                } | null;
                previousResponse: { id: string } | null;
              };
            }
          | {
              __typename: "ToolResultEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              callId: string;
              toolName: string;
              content: string;
              isError: boolean;
              response: {
                id: string;
                status: ResponseStatus;
                model: string | null;
                depth: number;
                createdAt: string;
                completedAt: string | null;
                error: unknown;
                metadata: Record<string, unknown>;
                usage: {
                  inputTokens: number | null;
                  outputTokens: number | null;
                  reasoningTokens: number | null;
                  totalTokens: number | null;
                } | null;
                previousResponse: { id: string } | null;
              };
            };
      }>;
    };
  } | null;
};

export type DialogLastSeqQueryVariables = Exact<{
  id: string | number;
}>;

export type DialogLastSeqQuery = { dialog: { id: string; lastSeq: number } | null };

export type DialogHeadQueryVariables = Exact<{
  id: string | number;
}>;

export type DialogHeadQuery = {
  dialog: {
    id: string;
    head: {
      id: string;
      status: ResponseStatus;
      model: string | null;
      depth: number;
      createdAt: string;
      completedAt: string | null;
      error: unknown;
      metadata: Record<string, unknown>;
      usage: {
        inputTokens: number | null;
        outputTokens: number | null;
        reasoningTokens: number | null;
        totalTokens: number | null;
      } | null;
      previousResponse: { id: string } | null;
    } | null;
  } | null;
};

export type ResponseTipQueryVariables = Exact<{
  id: string | number;
}>;

export type ResponseTipQuery = {
  response: {
    id: string;
    status: ResponseStatus;
    model: string | null;
    depth: number;
    createdAt: string;
    completedAt: string | null;
    error: unknown;
    metadata: Record<string, unknown>;
    dialog: { id: string };
    usage: {
      inputTokens: number | null;
      outputTokens: number | null;
      reasoningTokens: number | null;
      totalTokens: number | null;
    } | null;
    previousResponse: { id: string } | null;
  } | null;
};

export type DialogTreeQueryVariables = Exact<{
  id: string | number;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;

export type DialogTreeQuery = {
  dialog: {
    id: string;
    responses: {
      edges: Array<{
        node: {
          id: string;
          status: ResponseStatus;
          model: string | null;
          createdAt: string;
          previousResponse: { id: string } | null;
        };
      }>;
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    };
  } | null;
};

export type ResponseQueryVariables = Exact<{
  id: string | number;
}>;

export type ResponseQuery = {
  response: {
    id: string;
    status: ResponseStatus;
    model: string | null;
    depth: number;
    createdAt: string;
    completedAt: string | null;
    error: unknown;
    metadata: Record<string, unknown>;
    dialog: { id: string };
    children: Array<{ id: string }>;
    input: Array<
      | {
          __typename: "AiEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          content: string;
          response: { id: string };
          parts: Array<
            | { __typename: "AudioPart"; format: string }
            | { __typename: "FilePart"; fileId: string | null; filename: string | null }
            | { __typename: "ImageUrlPart"; url: string; detail: string | null }
            | { __typename: "TextPart"; text: string }
          > | null;
        }
      | {
          __typename: "HumanEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          content: string;
          response: { id: string };
          parts: Array<
            | { __typename: "AudioPart"; format: string }
            | { __typename: "FilePart"; fileId: string | null; filename: string | null }
            | { __typename: "ImageUrlPart"; url: string; detail: string | null }
            | { __typename: "TextPart"; text: string }
          > | null;
        }
      | {
          __typename: "ReasoningEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          content: string;
          modelName: string | null;
          response: { id: string };
        }
      | {
          __typename: "SystemEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          content: string;
          response: { id: string };
          parts: Array<
            | { __typename: "AudioPart"; format: string }
            | { __typename: "FilePart"; fileId: string | null; filename: string | null }
            | { __typename: "ImageUrlPart"; url: string; detail: string | null }
            | { __typename: "TextPart"; text: string }
          > | null;
        }
      | {
          __typename: "ToolCallEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          callId: string;
          toolName: string;
          args: Record<string, unknown>;
          response: { id: string };
        }
      | {
          __typename: "ToolResultEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          callId: string;
          toolName: string;
          content: string;
          isError: boolean;
          response: { id: string };
        }
    >;
    output: Array<
      | {
          __typename: "AiEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          content: string;
          response: { id: string };
          parts: Array<
            | { __typename: "AudioPart"; format: string }
            | { __typename: "FilePart"; fileId: string | null; filename: string | null }
            | { __typename: "ImageUrlPart"; url: string; detail: string | null }
            | { __typename: "TextPart"; text: string }
          > | null;
        }
      | {
          __typename: "HumanEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          content: string;
          response: { id: string };
          parts: Array<
            | { __typename: "AudioPart"; format: string }
            | { __typename: "FilePart"; fileId: string | null; filename: string | null }
            | { __typename: "ImageUrlPart"; url: string; detail: string | null }
            | { __typename: "TextPart"; text: string }
          > | null;
        }
      | {
          __typename: "ReasoningEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          content: string;
          modelName: string | null;
          response: { id: string };
        }
      | {
          __typename: "SystemEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          content: string;
          response: { id: string };
          parts: Array<
            | { __typename: "AudioPart"; format: string }
            | { __typename: "FilePart"; fileId: string | null; filename: string | null }
            | { __typename: "ImageUrlPart"; url: string; detail: string | null }
            | { __typename: "TextPart"; text: string }
          > | null;
        }
      | {
          __typename: "ToolCallEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          callId: string;
          toolName: string;
          args: Record<string, unknown>;
          response: { id: string };
        }
      | {
          __typename: "ToolResultEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          callId: string;
          toolName: string;
          content: string;
          isError: boolean;
          response: { id: string };
        }
    >;
    usage: {
      inputTokens: number | null;
      outputTokens: number | null;
      reasoningTokens: number | null;
      totalTokens: number | null;
    } | null;
    previousResponse: { id: string } | null;
  } | null;
};

export type ResponseContextQueryVariables = Exact<{
  id: string | number;
  types?: Array<HistoryEventType> | HistoryEventType | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;

export type ResponseContextQuery = {
  response: {
    id: string;
    context: {
      totalMessages: number;
      totalReasoning: number;
      totalToolCalls: number;
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
      edges: Array<{
        node:
          | {
              __typename: "AiEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              response: { id: string };
              parts: Array<
                | { __typename: "AudioPart"; format: string }
                | { __typename: "FilePart"; fileId: string | null; filename: string | null }
                | { __typename: "ImageUrlPart"; url: string; detail: string | null }
                | { __typename: "TextPart"; text: string }
              > | null;
            }
          | {
              __typename: "HumanEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              response: { id: string };
              parts: Array<
                | { __typename: "AudioPart"; format: string }
                | { __typename: "FilePart"; fileId: string | null; filename: string | null }
                | { __typename: "ImageUrlPart"; url: string; detail: string | null }
                | { __typename: "TextPart"; text: string }
              > | null;
            }
          | {
              __typename: "ReasoningEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              modelName: string | null;
              response: { id: string };
            }
          | {
              __typename: "SystemEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              content: string;
              response: { id: string };
              parts: Array<
                | { __typename: "AudioPart"; format: string }
                | { __typename: "FilePart"; fileId: string | null; filename: string | null }
                | { __typename: "ImageUrlPart"; url: string; detail: string | null }
                | { __typename: "TextPart"; text: string }
              > | null;
            }
          | {
              __typename: "ToolCallEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              callId: string;
              toolName: string;
              args: Record<string, unknown>;
              response: { id: string };
            }
          | {
              __typename: "ToolResultEvent";
              id: string;
              seq: number;
              type: HistoryEventType;
              createdAt: string;
              metadata: Record<string, unknown>;
              callId: string;
              toolName: string;
              content: string;
              isError: boolean;
              response: { id: string };
            };
      }>;
    };
  } | null;
};

export type HistoryDeltaSubscriptionVariables = Exact<{
  dialogId: string | number;
  afterSeq?: number | null | undefined;
}>;

export type HistoryDeltaSubscription = {
  historyDelta: {
    dialogId: string;
    responseId: string;
    seq: number;
    previousSeq: number;
    status: ResponseStatus;
    response: {
      id: string;
      status: ResponseStatus;
      model: string | null;
      depth: number;
      createdAt: string;
      completedAt: string | null;
      error: unknown;
      metadata: Record<string, unknown>;
      usage: {
        inputTokens: number | null;
        outputTokens: number | null;
        reasoningTokens: number | null;
        totalTokens: number | null;
      } | null;
      previousResponse: { id: string } | null;
    };
    append: Array<
      | {
          __typename: "AiEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          content: string;
          response: { id: string };
          parts: Array<
            | { __typename: "AudioPart"; format: string }
            | { __typename: "FilePart"; fileId: string | null; filename: string | null }
            | { __typename: "ImageUrlPart"; url: string; detail: string | null }
            | { __typename: "TextPart"; text: string }
          > | null;
        }
      | {
          __typename: "HumanEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          content: string;
          response: { id: string };
          parts: Array<
            | { __typename: "AudioPart"; format: string }
            | { __typename: "FilePart"; fileId: string | null; filename: string | null }
            | { __typename: "ImageUrlPart"; url: string; detail: string | null }
            | { __typename: "TextPart"; text: string }
          > | null;
        }
      | {
          __typename: "ReasoningEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          content: string;
          modelName: string | null;
          response: { id: string };
        }
      | {
          __typename: "SystemEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          content: string;
          response: { id: string };
          parts: Array<
            | { __typename: "AudioPart"; format: string }
            | { __typename: "FilePart"; fileId: string | null; filename: string | null }
            | { __typename: "ImageUrlPart"; url: string; detail: string | null }
            | { __typename: "TextPart"; text: string }
          > | null;
        }
      | {
          __typename: "ToolCallEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          callId: string;
          toolName: string;
          args: Record<string, unknown>;
          response: { id: string };
        }
      | {
          __typename: "ToolResultEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          callId: string;
          toolName: string;
          content: string;
          isError: boolean;
          response: { id: string };
        }
    >;
  };
};

export type ResponseUpdatedSubscriptionVariables = Exact<{
  responseId: string | number;
}>;

export type ResponseUpdatedSubscription = {
  responseUpdated: {
    id: string;
    status: ResponseStatus;
    model: string | null;
    depth: number;
    createdAt: string;
    completedAt: string | null;
    error: unknown;
    metadata: Record<string, unknown>;
    output: Array<
      | {
          __typename: "AiEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          content: string;
          response: { id: string };
          parts: Array<
            | { __typename: "AudioPart"; format: string }
            | { __typename: "FilePart"; fileId: string | null; filename: string | null }
            | { __typename: "ImageUrlPart"; url: string; detail: string | null }
            | { __typename: "TextPart"; text: string }
          > | null;
        }
      | {
          __typename: "HumanEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          content: string;
          response: { id: string };
          parts: Array<
            | { __typename: "AudioPart"; format: string }
            | { __typename: "FilePart"; fileId: string | null; filename: string | null }
            | { __typename: "ImageUrlPart"; url: string; detail: string | null }
            | { __typename: "TextPart"; text: string }
          > | null;
        }
      | {
          __typename: "ReasoningEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          content: string;
          modelName: string | null;
          response: { id: string };
        }
      | {
          __typename: "SystemEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          content: string;
          response: { id: string };
          parts: Array<
            | { __typename: "AudioPart"; format: string }
            | { __typename: "FilePart"; fileId: string | null; filename: string | null }
            | { __typename: "ImageUrlPart"; url: string; detail: string | null }
            | { __typename: "TextPart"; text: string }
          > | null;
        }
      | {
          __typename: "ToolCallEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          callId: string;
          toolName: string;
          args: Record<string, unknown>;
          response: { id: string };
        }
      | {
          __typename: "ToolResultEvent";
          id: string;
          seq: number;
          type: HistoryEventType;
          createdAt: string;
          metadata: Record<string, unknown>;
          callId: string;
          toolName: string;
          content: string;
          isError: boolean;
          response: { id: string };
        }
    >;
    usage: {
      inputTokens: number | null;
      outputTokens: number | null;
      reasoningTokens: number | null;
      totalTokens: number | null;
    } | null;
    previousResponse: { id: string } | null;
  };
};

export type WriteTurnMutationVariables = Exact<{
  input: CreateResponseInput;
}>;

export type WriteTurnMutation = {
  createResponse:
    | { __typename: "ConflictError"; message: string; code: string }
    | { __typename: "NotFoundError"; message: string; code: string }
    | {
        __typename: "Response";
        id: string;
        status: ResponseStatus;
        depth: number;
        dialog: { id: string };
        previousResponse: { id: string } | null;
      }
    | {
        __typename: "ValidationError";
        message: string;
        code: string;
        fieldErrors: Array<{ path: Array<string>; message: string }>;
      };
};

export const ContentPartFieldsFragmentDoc = {
  kind: "Document",
  definitions: [
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ContentPartFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ContentPart" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "TextPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "text" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ImageUrlPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "url" } },
                { kind: "Field", name: { kind: "Name", value: "detail" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AudioPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "format" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "FilePart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "fileId" } },
                { kind: "Field", name: { kind: "Name", value: "filename" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ContentPartFieldsFragment, unknown>;
export const HistoryEventFieldsFragmentDoc = {
  kind: "Document",
  definitions: [
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "HistoryEventFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "HistoryEvent" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "BaseHistoryEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "seq" } },
                { kind: "Field", name: { kind: "Name", value: "type" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
                { kind: "Field", name: { kind: "Name", value: "metadata" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "response" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "HumanEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AiEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "SystemEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ReasoningEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                { kind: "Field", name: { kind: "Name", value: "modelName" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ToolCallEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "callId" } },
                { kind: "Field", name: { kind: "Name", value: "toolName" } },
                { kind: "Field", name: { kind: "Name", value: "args" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ToolResultEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "callId" } },
                { kind: "Field", name: { kind: "Name", value: "toolName" } },
                { kind: "Field", name: { kind: "Name", value: "content" } },
                { kind: "Field", name: { kind: "Name", value: "isError" } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ContentPartFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ContentPart" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "TextPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "text" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ImageUrlPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "url" } },
                { kind: "Field", name: { kind: "Name", value: "detail" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AudioPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "format" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "FilePart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "fileId" } },
                { kind: "Field", name: { kind: "Name", value: "filename" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<HistoryEventFieldsFragment, unknown>;
export const ResponseSummaryFragmentDoc = {
  kind: "Document",
  definitions: [
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ResponseSummary" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Response" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "model" } },
          { kind: "Field", name: { kind: "Name", value: "depth" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "completedAt" } },
          { kind: "Field", name: { kind: "Name", value: "error" } },
          { kind: "Field", name: { kind: "Name", value: "metadata" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "usage" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "inputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "outputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "reasoningTokens" } },
                { kind: "Field", name: { kind: "Name", value: "totalTokens" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "previousResponse" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ResponseSummaryFragment, unknown>;
export const DialogSummaryFragmentDoc = {
  kind: "Document",
  definitions: [
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "DialogSummary" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Dialog" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "title" } },
          { kind: "Field", name: { kind: "Name", value: "metadata" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "updatedAt" } },
          { kind: "Field", name: { kind: "Name", value: "lastSeq" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "head" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "status" } },
                { kind: "Field", name: { kind: "Name", value: "model" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DialogSummaryFragment, unknown>;
export const WriteErrorFieldsFragmentDoc = {
  kind: "Document",
  definitions: [
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "WriteErrorFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Error" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          { kind: "Field", name: { kind: "Name", value: "message" } },
          { kind: "Field", name: { kind: "Name", value: "code" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ValidationError" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                {
                  kind: "Field",
                  name: { kind: "Name", value: "fieldErrors" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "path" } },
                      { kind: "Field", name: { kind: "Name", value: "message" } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<WriteErrorFieldsFragment, unknown>;
export const CreateDialogDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CreateDialog" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: {
            kind: "NonNullType",
            type: { kind: "NamedType", name: { kind: "Name", value: "CreateDialogInput" } },
          },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "createDialog" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "__typename" } },
                {
                  kind: "InlineFragment",
                  typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Dialog" } },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "DialogSummary" } }],
                  },
                },
                {
                  kind: "InlineFragment",
                  typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Error" } },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "WriteErrorFields" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "DialogSummary" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Dialog" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "title" } },
          { kind: "Field", name: { kind: "Name", value: "metadata" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "updatedAt" } },
          { kind: "Field", name: { kind: "Name", value: "lastSeq" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "head" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "status" } },
                { kind: "Field", name: { kind: "Name", value: "model" } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "WriteErrorFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Error" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          { kind: "Field", name: { kind: "Name", value: "message" } },
          { kind: "Field", name: { kind: "Name", value: "code" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ValidationError" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                {
                  kind: "Field",
                  name: { kind: "Name", value: "fieldErrors" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "path" } },
                      { kind: "Field", name: { kind: "Name", value: "message" } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CreateDialogMutation, CreateDialogMutationVariables>;
export const UpdateDialogDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "UpdateDialog" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: {
            kind: "NonNullType",
            type: { kind: "NamedType", name: { kind: "Name", value: "UpdateDialogInput" } },
          },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "updateDialog" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "__typename" } },
                {
                  kind: "InlineFragment",
                  typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Dialog" } },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "DialogSummary" } }],
                  },
                },
                {
                  kind: "InlineFragment",
                  typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Error" } },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "WriteErrorFields" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "DialogSummary" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Dialog" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "title" } },
          { kind: "Field", name: { kind: "Name", value: "metadata" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "updatedAt" } },
          { kind: "Field", name: { kind: "Name", value: "lastSeq" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "head" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "status" } },
                { kind: "Field", name: { kind: "Name", value: "model" } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "WriteErrorFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Error" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          { kind: "Field", name: { kind: "Name", value: "message" } },
          { kind: "Field", name: { kind: "Name", value: "code" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ValidationError" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                {
                  kind: "Field",
                  name: { kind: "Name", value: "fieldErrors" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "path" } },
                      { kind: "Field", name: { kind: "Name", value: "message" } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<UpdateDialogMutation, UpdateDialogMutationVariables>;
export const DeleteDialogDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "DeleteDialog" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: {
            kind: "NonNullType",
            type: { kind: "NamedType", name: { kind: "Name", value: "DeleteDialogInput" } },
          },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "deleteDialog" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "__typename" } },
                {
                  kind: "InlineFragment",
                  typeCondition: { kind: "NamedType", name: { kind: "Name", value: "DeleteDialogPayload" } },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                  },
                },
                {
                  kind: "InlineFragment",
                  typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Error" } },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "WriteErrorFields" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "WriteErrorFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Error" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          { kind: "Field", name: { kind: "Name", value: "message" } },
          { kind: "Field", name: { kind: "Name", value: "code" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ValidationError" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                {
                  kind: "Field",
                  name: { kind: "Name", value: "fieldErrors" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "path" } },
                      { kind: "Field", name: { kind: "Name", value: "message" } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DeleteDialogMutation, DeleteDialogMutationVariables>;
export const CreateResponseDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CreateResponse" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: {
            kind: "NonNullType",
            type: { kind: "NamedType", name: { kind: "Name", value: "CreateResponseInput" } },
          },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "createResponse" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "__typename" } },
                {
                  kind: "InlineFragment",
                  typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Response" } },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "FragmentSpread", name: { kind: "Name", value: "ResponseSummary" } },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "dialog" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                        },
                      },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "input" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "HistoryEventFields" } }],
                        },
                      },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "output" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "HistoryEventFields" } }],
                        },
                      },
                    ],
                  },
                },
                {
                  kind: "InlineFragment",
                  typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Error" } },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "WriteErrorFields" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ContentPartFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ContentPart" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "TextPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "text" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ImageUrlPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "url" } },
                { kind: "Field", name: { kind: "Name", value: "detail" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AudioPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "format" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "FilePart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "fileId" } },
                { kind: "Field", name: { kind: "Name", value: "filename" } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ResponseSummary" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Response" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "model" } },
          { kind: "Field", name: { kind: "Name", value: "depth" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "completedAt" } },
          { kind: "Field", name: { kind: "Name", value: "error" } },
          { kind: "Field", name: { kind: "Name", value: "metadata" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "usage" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "inputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "outputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "reasoningTokens" } },
                { kind: "Field", name: { kind: "Name", value: "totalTokens" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "previousResponse" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "HistoryEventFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "HistoryEvent" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "BaseHistoryEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "seq" } },
                { kind: "Field", name: { kind: "Name", value: "type" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
                { kind: "Field", name: { kind: "Name", value: "metadata" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "response" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "HumanEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AiEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "SystemEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ReasoningEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                { kind: "Field", name: { kind: "Name", value: "modelName" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ToolCallEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "callId" } },
                { kind: "Field", name: { kind: "Name", value: "toolName" } },
                { kind: "Field", name: { kind: "Name", value: "args" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ToolResultEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "callId" } },
                { kind: "Field", name: { kind: "Name", value: "toolName" } },
                { kind: "Field", name: { kind: "Name", value: "content" } },
                { kind: "Field", name: { kind: "Name", value: "isError" } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "WriteErrorFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Error" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          { kind: "Field", name: { kind: "Name", value: "message" } },
          { kind: "Field", name: { kind: "Name", value: "code" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ValidationError" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                {
                  kind: "Field",
                  name: { kind: "Name", value: "fieldErrors" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "path" } },
                      { kind: "Field", name: { kind: "Name", value: "message" } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CreateResponseMutation, CreateResponseMutationVariables>;
export const AppendEventsDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "AppendEvents" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: {
            kind: "NonNullType",
            type: { kind: "NamedType", name: { kind: "Name", value: "AppendEventsInput" } },
          },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "appendEvents" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "__typename" } },
                {
                  kind: "InlineFragment",
                  typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Response" } },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "FragmentSpread", name: { kind: "Name", value: "ResponseSummary" } },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "output" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "HistoryEventFields" } }],
                        },
                      },
                    ],
                  },
                },
                {
                  kind: "InlineFragment",
                  typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Error" } },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "WriteErrorFields" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ContentPartFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ContentPart" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "TextPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "text" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ImageUrlPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "url" } },
                { kind: "Field", name: { kind: "Name", value: "detail" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AudioPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "format" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "FilePart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "fileId" } },
                { kind: "Field", name: { kind: "Name", value: "filename" } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ResponseSummary" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Response" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "model" } },
          { kind: "Field", name: { kind: "Name", value: "depth" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "completedAt" } },
          { kind: "Field", name: { kind: "Name", value: "error" } },
          { kind: "Field", name: { kind: "Name", value: "metadata" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "usage" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "inputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "outputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "reasoningTokens" } },
                { kind: "Field", name: { kind: "Name", value: "totalTokens" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "previousResponse" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "HistoryEventFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "HistoryEvent" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "BaseHistoryEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "seq" } },
                { kind: "Field", name: { kind: "Name", value: "type" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
                { kind: "Field", name: { kind: "Name", value: "metadata" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "response" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "HumanEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AiEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "SystemEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ReasoningEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                { kind: "Field", name: { kind: "Name", value: "modelName" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ToolCallEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "callId" } },
                { kind: "Field", name: { kind: "Name", value: "toolName" } },
                { kind: "Field", name: { kind: "Name", value: "args" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ToolResultEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "callId" } },
                { kind: "Field", name: { kind: "Name", value: "toolName" } },
                { kind: "Field", name: { kind: "Name", value: "content" } },
                { kind: "Field", name: { kind: "Name", value: "isError" } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "WriteErrorFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Error" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          { kind: "Field", name: { kind: "Name", value: "message" } },
          { kind: "Field", name: { kind: "Name", value: "code" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ValidationError" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                {
                  kind: "Field",
                  name: { kind: "Name", value: "fieldErrors" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "path" } },
                      { kind: "Field", name: { kind: "Name", value: "message" } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<AppendEventsMutation, AppendEventsMutationVariables>;
export const CompleteResponseDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CompleteResponse" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: {
            kind: "NonNullType",
            type: { kind: "NamedType", name: { kind: "Name", value: "CompleteResponseInput" } },
          },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "completeResponse" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "__typename" } },
                {
                  kind: "InlineFragment",
                  typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Response" } },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ResponseSummary" } }],
                  },
                },
                {
                  kind: "InlineFragment",
                  typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Error" } },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "WriteErrorFields" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ResponseSummary" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Response" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "model" } },
          { kind: "Field", name: { kind: "Name", value: "depth" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "completedAt" } },
          { kind: "Field", name: { kind: "Name", value: "error" } },
          { kind: "Field", name: { kind: "Name", value: "metadata" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "usage" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "inputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "outputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "reasoningTokens" } },
                { kind: "Field", name: { kind: "Name", value: "totalTokens" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "previousResponse" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "WriteErrorFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Error" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          { kind: "Field", name: { kind: "Name", value: "message" } },
          { kind: "Field", name: { kind: "Name", value: "code" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ValidationError" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                {
                  kind: "Field",
                  name: { kind: "Name", value: "fieldErrors" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "path" } },
                      { kind: "Field", name: { kind: "Name", value: "message" } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CompleteResponseMutation, CompleteResponseMutationVariables>;
export const InterruptResponseDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "InterruptResponse" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: {
            kind: "NonNullType",
            type: { kind: "NamedType", name: { kind: "Name", value: "InterruptResponseInput" } },
          },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "interruptResponse" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "__typename" } },
                {
                  kind: "InlineFragment",
                  typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Response" } },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "FragmentSpread", name: { kind: "Name", value: "ResponseSummary" } },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "output" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "HistoryEventFields" } }],
                        },
                      },
                    ],
                  },
                },
                {
                  kind: "InlineFragment",
                  typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Error" } },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "WriteErrorFields" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ContentPartFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ContentPart" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "TextPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "text" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ImageUrlPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "url" } },
                { kind: "Field", name: { kind: "Name", value: "detail" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AudioPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "format" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "FilePart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "fileId" } },
                { kind: "Field", name: { kind: "Name", value: "filename" } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ResponseSummary" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Response" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "model" } },
          { kind: "Field", name: { kind: "Name", value: "depth" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "completedAt" } },
          { kind: "Field", name: { kind: "Name", value: "error" } },
          { kind: "Field", name: { kind: "Name", value: "metadata" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "usage" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "inputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "outputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "reasoningTokens" } },
                { kind: "Field", name: { kind: "Name", value: "totalTokens" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "previousResponse" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "HistoryEventFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "HistoryEvent" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "BaseHistoryEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "seq" } },
                { kind: "Field", name: { kind: "Name", value: "type" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
                { kind: "Field", name: { kind: "Name", value: "metadata" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "response" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "HumanEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AiEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "SystemEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ReasoningEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                { kind: "Field", name: { kind: "Name", value: "modelName" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ToolCallEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "callId" } },
                { kind: "Field", name: { kind: "Name", value: "toolName" } },
                { kind: "Field", name: { kind: "Name", value: "args" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ToolResultEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "callId" } },
                { kind: "Field", name: { kind: "Name", value: "toolName" } },
                { kind: "Field", name: { kind: "Name", value: "content" } },
                { kind: "Field", name: { kind: "Name", value: "isError" } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "WriteErrorFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Error" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          { kind: "Field", name: { kind: "Name", value: "message" } },
          { kind: "Field", name: { kind: "Name", value: "code" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ValidationError" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                {
                  kind: "Field",
                  name: { kind: "Name", value: "fieldErrors" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "path" } },
                      { kind: "Field", name: { kind: "Name", value: "message" } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<InterruptResponseMutation, InterruptResponseMutationVariables>;
export const DialogsDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "Dialogs" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "first" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "Int" } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "after" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "String" } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "dialogs" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "first" },
                value: { kind: "Variable", name: { kind: "Name", value: "first" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "after" },
                value: { kind: "Variable", name: { kind: "Name", value: "after" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                {
                  kind: "Field",
                  name: { kind: "Name", value: "edges" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "cursor" } },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "node" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "DialogSummary" } }],
                        },
                      },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "pageInfo" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "hasNextPage" } },
                      { kind: "Field", name: { kind: "Name", value: "endCursor" } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "DialogSummary" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Dialog" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "title" } },
          { kind: "Field", name: { kind: "Name", value: "metadata" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "updatedAt" } },
          { kind: "Field", name: { kind: "Name", value: "lastSeq" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "head" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "status" } },
                { kind: "Field", name: { kind: "Name", value: "model" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DialogsQuery, DialogsQueryVariables>;
export const DialogDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "Dialog" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "dialog" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "FragmentSpread", name: { kind: "Name", value: "DialogSummary" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "forkedFrom" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "branches" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ResponseSummary" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "DialogSummary" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Dialog" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "title" } },
          { kind: "Field", name: { kind: "Name", value: "metadata" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "updatedAt" } },
          { kind: "Field", name: { kind: "Name", value: "lastSeq" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "head" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "status" } },
                { kind: "Field", name: { kind: "Name", value: "model" } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ResponseSummary" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Response" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "model" } },
          { kind: "Field", name: { kind: "Name", value: "depth" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "completedAt" } },
          { kind: "Field", name: { kind: "Name", value: "error" } },
          { kind: "Field", name: { kind: "Name", value: "metadata" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "usage" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "inputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "outputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "reasoningTokens" } },
                { kind: "Field", name: { kind: "Name", value: "totalTokens" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "previousResponse" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DialogQuery, DialogQueryVariables>;
export const DialogHistoryDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "DialogHistory" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "dialogId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "responseId" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "ID" } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "types" } },
          type: {
            kind: "ListType",
            type: {
              kind: "NonNullType",
              type: { kind: "NamedType", name: { kind: "Name", value: "HistoryEventType" } },
            },
          },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "first" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "Int" } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "after" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "String" } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "dialog" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "dialogId" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "history" },
                  arguments: [
                    {
                      kind: "Argument",
                      name: { kind: "Name", value: "responseId" },
                      value: { kind: "Variable", name: { kind: "Name", value: "responseId" } },
                    },
                    {
                      kind: "Argument",
                      name: { kind: "Name", value: "types" },
                      value: { kind: "Variable", name: { kind: "Name", value: "types" } },
                    },
                    {
                      kind: "Argument",
                      name: { kind: "Name", value: "first" },
                      value: { kind: "Variable", name: { kind: "Name", value: "first" } },
                    },
                    {
                      kind: "Argument",
                      name: { kind: "Name", value: "after" },
                      value: { kind: "Variable", name: { kind: "Name", value: "after" } },
                    },
                  ],
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "totalMessages" } },
                      { kind: "Field", name: { kind: "Name", value: "totalReasoning" } },
                      { kind: "Field", name: { kind: "Name", value: "totalToolCalls" } },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "pageInfo" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [
                            { kind: "Field", name: { kind: "Name", value: "hasNextPage" } },
                            { kind: "Field", name: { kind: "Name", value: "endCursor" } },
                          ],
                        },
                      },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "edges" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [
                            {
                              kind: "Field",
                              name: { kind: "Name", value: "node" },
                              selectionSet: {
                                kind: "SelectionSet",
                                selections: [
                                  { kind: "FragmentSpread", name: { kind: "Name", value: "HistoryEventFields" } },
                                  {
                                    kind: "InlineFragment",
                                    typeCondition: {
                                      kind: "NamedType",
                                      name: { kind: "Name", value: "BaseHistoryEvent" },
                                    },
                                    selectionSet: {
                                      kind: "SelectionSet",
                                      selections: [
                                        {
                                          kind: "Field",
                                          name: { kind: "Name", value: "response" },
                                          selectionSet: {
                                            kind: "SelectionSet",
                                            selections: [
                                              {
                                                kind: "FragmentSpread",
                                                name: { kind: "Name", value: "ResponseSummary" },
                                              },
                                            ],
                                          },
                                        },
                                      ],
                                    },
                                  },
                                ],
                              },
                            },
                          ],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ContentPartFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ContentPart" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "TextPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "text" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ImageUrlPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "url" } },
                { kind: "Field", name: { kind: "Name", value: "detail" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AudioPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "format" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "FilePart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "fileId" } },
                { kind: "Field", name: { kind: "Name", value: "filename" } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "HistoryEventFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "HistoryEvent" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "BaseHistoryEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "seq" } },
                { kind: "Field", name: { kind: "Name", value: "type" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
                { kind: "Field", name: { kind: "Name", value: "metadata" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "response" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "HumanEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AiEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "SystemEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ReasoningEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                { kind: "Field", name: { kind: "Name", value: "modelName" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ToolCallEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "callId" } },
                { kind: "Field", name: { kind: "Name", value: "toolName" } },
                { kind: "Field", name: { kind: "Name", value: "args" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ToolResultEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "callId" } },
                { kind: "Field", name: { kind: "Name", value: "toolName" } },
                { kind: "Field", name: { kind: "Name", value: "content" } },
                { kind: "Field", name: { kind: "Name", value: "isError" } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ResponseSummary" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Response" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "model" } },
          { kind: "Field", name: { kind: "Name", value: "depth" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "completedAt" } },
          { kind: "Field", name: { kind: "Name", value: "error" } },
          { kind: "Field", name: { kind: "Name", value: "metadata" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "usage" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "inputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "outputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "reasoningTokens" } },
                { kind: "Field", name: { kind: "Name", value: "totalTokens" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "previousResponse" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DialogHistoryQuery, DialogHistoryQueryVariables>;
export const DialogLastSeqDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "DialogLastSeq" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "dialog" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "lastSeq" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DialogLastSeqQuery, DialogLastSeqQueryVariables>;
export const DialogHeadDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "DialogHead" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "dialog" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "head" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ResponseSummary" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ResponseSummary" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Response" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "model" } },
          { kind: "Field", name: { kind: "Name", value: "depth" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "completedAt" } },
          { kind: "Field", name: { kind: "Name", value: "error" } },
          { kind: "Field", name: { kind: "Name", value: "metadata" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "usage" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "inputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "outputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "reasoningTokens" } },
                { kind: "Field", name: { kind: "Name", value: "totalTokens" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "previousResponse" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DialogHeadQuery, DialogHeadQueryVariables>;
export const ResponseTipDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "ResponseTip" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "response" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "FragmentSpread", name: { kind: "Name", value: "ResponseSummary" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "dialog" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ResponseSummary" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Response" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "model" } },
          { kind: "Field", name: { kind: "Name", value: "depth" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "completedAt" } },
          { kind: "Field", name: { kind: "Name", value: "error" } },
          { kind: "Field", name: { kind: "Name", value: "metadata" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "usage" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "inputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "outputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "reasoningTokens" } },
                { kind: "Field", name: { kind: "Name", value: "totalTokens" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "previousResponse" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ResponseTipQuery, ResponseTipQueryVariables>;
export const DialogTreeDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "DialogTree" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "first" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "Int" } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "after" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "String" } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "dialog" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "responses" },
                  arguments: [
                    {
                      kind: "Argument",
                      name: { kind: "Name", value: "first" },
                      value: { kind: "Variable", name: { kind: "Name", value: "first" } },
                    },
                    {
                      kind: "Argument",
                      name: { kind: "Name", value: "after" },
                      value: { kind: "Variable", name: { kind: "Name", value: "after" } },
                    },
                  ],
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "edges" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [
                            {
                              kind: "Field",
                              name: { kind: "Name", value: "node" },
                              selectionSet: {
                                kind: "SelectionSet",
                                selections: [
                                  { kind: "Field", name: { kind: "Name", value: "id" } },
                                  { kind: "Field", name: { kind: "Name", value: "status" } },
                                  { kind: "Field", name: { kind: "Name", value: "model" } },
                                  { kind: "Field", name: { kind: "Name", value: "createdAt" } },
                                  {
                                    kind: "Field",
                                    name: { kind: "Name", value: "previousResponse" },
                                    selectionSet: {
                                      kind: "SelectionSet",
                                      selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                                    },
                                  },
                                ],
                              },
                            },
                          ],
                        },
                      },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "pageInfo" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [
                            { kind: "Field", name: { kind: "Name", value: "hasNextPage" } },
                            { kind: "Field", name: { kind: "Name", value: "endCursor" } },
                          ],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DialogTreeQuery, DialogTreeQueryVariables>;
export const ResponseDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "Response" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "response" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "FragmentSpread", name: { kind: "Name", value: "ResponseSummary" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "dialog" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "children" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "input" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "HistoryEventFields" } }],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "output" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "HistoryEventFields" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ContentPartFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ContentPart" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "TextPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "text" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ImageUrlPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "url" } },
                { kind: "Field", name: { kind: "Name", value: "detail" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AudioPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "format" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "FilePart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "fileId" } },
                { kind: "Field", name: { kind: "Name", value: "filename" } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ResponseSummary" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Response" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "model" } },
          { kind: "Field", name: { kind: "Name", value: "depth" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "completedAt" } },
          { kind: "Field", name: { kind: "Name", value: "error" } },
          { kind: "Field", name: { kind: "Name", value: "metadata" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "usage" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "inputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "outputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "reasoningTokens" } },
                { kind: "Field", name: { kind: "Name", value: "totalTokens" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "previousResponse" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "HistoryEventFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "HistoryEvent" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "BaseHistoryEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "seq" } },
                { kind: "Field", name: { kind: "Name", value: "type" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
                { kind: "Field", name: { kind: "Name", value: "metadata" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "response" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "HumanEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AiEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "SystemEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ReasoningEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                { kind: "Field", name: { kind: "Name", value: "modelName" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ToolCallEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "callId" } },
                { kind: "Field", name: { kind: "Name", value: "toolName" } },
                { kind: "Field", name: { kind: "Name", value: "args" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ToolResultEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "callId" } },
                { kind: "Field", name: { kind: "Name", value: "toolName" } },
                { kind: "Field", name: { kind: "Name", value: "content" } },
                { kind: "Field", name: { kind: "Name", value: "isError" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ResponseQuery, ResponseQueryVariables>;
export const ResponseContextDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "ResponseContext" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "types" } },
          type: {
            kind: "ListType",
            type: {
              kind: "NonNullType",
              type: { kind: "NamedType", name: { kind: "Name", value: "HistoryEventType" } },
            },
          },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "first" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "Int" } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "after" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "String" } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "response" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "context" },
                  arguments: [
                    {
                      kind: "Argument",
                      name: { kind: "Name", value: "types" },
                      value: { kind: "Variable", name: { kind: "Name", value: "types" } },
                    },
                    {
                      kind: "Argument",
                      name: { kind: "Name", value: "first" },
                      value: { kind: "Variable", name: { kind: "Name", value: "first" } },
                    },
                    {
                      kind: "Argument",
                      name: { kind: "Name", value: "after" },
                      value: { kind: "Variable", name: { kind: "Name", value: "after" } },
                    },
                  ],
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "totalMessages" } },
                      { kind: "Field", name: { kind: "Name", value: "totalReasoning" } },
                      { kind: "Field", name: { kind: "Name", value: "totalToolCalls" } },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "pageInfo" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [
                            { kind: "Field", name: { kind: "Name", value: "hasNextPage" } },
                            { kind: "Field", name: { kind: "Name", value: "endCursor" } },
                          ],
                        },
                      },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "edges" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [
                            {
                              kind: "Field",
                              name: { kind: "Name", value: "node" },
                              selectionSet: {
                                kind: "SelectionSet",
                                selections: [
                                  { kind: "FragmentSpread", name: { kind: "Name", value: "HistoryEventFields" } },
                                ],
                              },
                            },
                          ],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ContentPartFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ContentPart" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "TextPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "text" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ImageUrlPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "url" } },
                { kind: "Field", name: { kind: "Name", value: "detail" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AudioPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "format" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "FilePart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "fileId" } },
                { kind: "Field", name: { kind: "Name", value: "filename" } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "HistoryEventFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "HistoryEvent" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "BaseHistoryEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "seq" } },
                { kind: "Field", name: { kind: "Name", value: "type" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
                { kind: "Field", name: { kind: "Name", value: "metadata" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "response" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "HumanEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AiEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "SystemEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ReasoningEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                { kind: "Field", name: { kind: "Name", value: "modelName" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ToolCallEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "callId" } },
                { kind: "Field", name: { kind: "Name", value: "toolName" } },
                { kind: "Field", name: { kind: "Name", value: "args" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ToolResultEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "callId" } },
                { kind: "Field", name: { kind: "Name", value: "toolName" } },
                { kind: "Field", name: { kind: "Name", value: "content" } },
                { kind: "Field", name: { kind: "Name", value: "isError" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ResponseContextQuery, ResponseContextQueryVariables>;
export const HistoryDeltaDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "subscription",
      name: { kind: "Name", value: "HistoryDelta" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "dialogId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "afterSeq" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "Int" } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "historyDelta" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "dialogId" },
                value: { kind: "Variable", name: { kind: "Name", value: "dialogId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "afterSeq" },
                value: { kind: "Variable", name: { kind: "Name", value: "afterSeq" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "dialogId" } },
                { kind: "Field", name: { kind: "Name", value: "responseId" } },
                { kind: "Field", name: { kind: "Name", value: "seq" } },
                { kind: "Field", name: { kind: "Name", value: "previousSeq" } },
                { kind: "Field", name: { kind: "Name", value: "status" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "response" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ResponseSummary" } }],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "append" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "HistoryEventFields" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ContentPartFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ContentPart" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "TextPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "text" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ImageUrlPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "url" } },
                { kind: "Field", name: { kind: "Name", value: "detail" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AudioPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "format" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "FilePart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "fileId" } },
                { kind: "Field", name: { kind: "Name", value: "filename" } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ResponseSummary" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Response" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "model" } },
          { kind: "Field", name: { kind: "Name", value: "depth" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "completedAt" } },
          { kind: "Field", name: { kind: "Name", value: "error" } },
          { kind: "Field", name: { kind: "Name", value: "metadata" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "usage" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "inputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "outputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "reasoningTokens" } },
                { kind: "Field", name: { kind: "Name", value: "totalTokens" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "previousResponse" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "HistoryEventFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "HistoryEvent" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "BaseHistoryEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "seq" } },
                { kind: "Field", name: { kind: "Name", value: "type" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
                { kind: "Field", name: { kind: "Name", value: "metadata" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "response" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "HumanEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AiEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "SystemEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ReasoningEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                { kind: "Field", name: { kind: "Name", value: "modelName" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ToolCallEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "callId" } },
                { kind: "Field", name: { kind: "Name", value: "toolName" } },
                { kind: "Field", name: { kind: "Name", value: "args" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ToolResultEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "callId" } },
                { kind: "Field", name: { kind: "Name", value: "toolName" } },
                { kind: "Field", name: { kind: "Name", value: "content" } },
                { kind: "Field", name: { kind: "Name", value: "isError" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<HistoryDeltaSubscription, HistoryDeltaSubscriptionVariables>;
export const ResponseUpdatedDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "subscription",
      name: { kind: "Name", value: "ResponseUpdated" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "responseId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "responseUpdated" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "responseId" },
                value: { kind: "Variable", name: { kind: "Name", value: "responseId" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "FragmentSpread", name: { kind: "Name", value: "ResponseSummary" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "output" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "HistoryEventFields" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ContentPartFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ContentPart" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "TextPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "text" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ImageUrlPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "url" } },
                { kind: "Field", name: { kind: "Name", value: "detail" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AudioPart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "format" } }],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "FilePart" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "fileId" } },
                { kind: "Field", name: { kind: "Name", value: "filename" } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ResponseSummary" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Response" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "model" } },
          { kind: "Field", name: { kind: "Name", value: "depth" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "completedAt" } },
          { kind: "Field", name: { kind: "Name", value: "error" } },
          { kind: "Field", name: { kind: "Name", value: "metadata" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "usage" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "inputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "outputTokens" } },
                { kind: "Field", name: { kind: "Name", value: "reasoningTokens" } },
                { kind: "Field", name: { kind: "Name", value: "totalTokens" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "previousResponse" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "HistoryEventFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "HistoryEvent" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "__typename" } },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "BaseHistoryEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "seq" } },
                { kind: "Field", name: { kind: "Name", value: "type" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
                { kind: "Field", name: { kind: "Name", value: "metadata" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "response" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "HumanEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "AiEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "SystemEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "parts" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ContentPartFields" } }],
                  },
                },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ReasoningEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "content" } },
                { kind: "Field", name: { kind: "Name", value: "modelName" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ToolCallEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "callId" } },
                { kind: "Field", name: { kind: "Name", value: "toolName" } },
                { kind: "Field", name: { kind: "Name", value: "args" } },
              ],
            },
          },
          {
            kind: "InlineFragment",
            typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ToolResultEvent" } },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "callId" } },
                { kind: "Field", name: { kind: "Name", value: "toolName" } },
                { kind: "Field", name: { kind: "Name", value: "content" } },
                { kind: "Field", name: { kind: "Name", value: "isError" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ResponseUpdatedSubscription, ResponseUpdatedSubscriptionVariables>;
export const WriteTurnDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "WriteTurn" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: {
            kind: "NonNullType",
            type: { kind: "NamedType", name: { kind: "Name", value: "CreateResponseInput" } },
          },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "createResponse" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "__typename" } },
                {
                  kind: "InlineFragment",
                  typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Response" } },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "status" } },
                      { kind: "Field", name: { kind: "Name", value: "depth" } },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "dialog" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                        },
                      },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "previousResponse" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                        },
                      },
                    ],
                  },
                },
                {
                  kind: "InlineFragment",
                  typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Error" } },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "message" } },
                      { kind: "Field", name: { kind: "Name", value: "code" } },
                    ],
                  },
                },
                {
                  kind: "InlineFragment",
                  typeCondition: { kind: "NamedType", name: { kind: "Name", value: "ValidationError" } },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "fieldErrors" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [
                            { kind: "Field", name: { kind: "Name", value: "path" } },
                            { kind: "Field", name: { kind: "Name", value: "message" } },
                          ],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<WriteTurnMutation, WriteTurnMutationVariables>;
