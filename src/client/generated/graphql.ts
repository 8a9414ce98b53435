/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
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

export type HistoryEventInput =
  {   ai: MessageEventInput; human?: never; reasoning?: never; system?: never; toolCall?: never; toolResult?: never; }
  |  { ai?: never;   human: MessageEventInput; reasoning?: never; system?: never; toolCall?: never; toolResult?: never; }
  |  { ai?: never; human?: never;   reasoning: ReasoningEventInput; system?: never; toolCall?: never; toolResult?: never; }
  |  { ai?: never; human?: never; reasoning?: never;   system: MessageEventInput; toolCall?: never; toolResult?: never; }
  |  { ai?: never; human?: never; reasoning?: never; system?: never;   toolCall: ToolCallEventInput; toolResult?: never; }
  |  { ai?: never; human?: never; reasoning?: never; system?: never; toolCall?: never;   toolResult: ToolResultEventInput; };

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

export type ResponseStatus =
  | 'CANCELLED'
  | 'COMPLETED'
  | 'FAILED'
  | 'INCOMPLETE'
  | 'IN_PROGRESS';

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

export type UsageInput = {
  inputTokens?: number | null | undefined;
  outputTokens?: number | null | undefined;
  reasoningTokens?: number | null | undefined;
  totalTokens?: number | null | undefined;
};

export type CreateResponseMutationVariables = Exact<{
  input: CreateResponseInput;
}>;


export type CreateResponseMutation = { createResponse:
    | { __typename: 'ConflictError', message: string, code: string }
    | { __typename: 'NotFoundError', message: string, code: string }
    | { __typename: 'Response', id: string, status: ResponseStatus, depth: number, dialog: { id: string }, previousResponse: { id: string } | null }
    | { __typename: 'ValidationError', message: string, code: string, fieldErrors: Array<{ path: Array<string>, message: string }> }
   };


export const CreateResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateResponse"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateResponseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Response"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previousResponse"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]}}]} as unknown as DocumentNode<CreateResponseMutation, CreateResponseMutationVariables>;