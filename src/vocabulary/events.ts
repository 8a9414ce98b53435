// The shapes of a history event every layer speaks: the GraphQL input of one event
// (HistoryEventInput: exactly one kind set), and the row a write inserts (NewEvent). The services
// check an input and turn it into a NewEvent (src/services/event-input.ts); imports make
// NewEvents from other formats (src/formats); the store inserts them (src/store).
import type { HistoryEventType } from "../generated/prisma/enums.js";
import type { ProviderFields } from "./provider-fields.js";

type Json = unknown;

interface CommonInput {
  metadata?: Json | null;
  createdAt?: Date | null;
}
export interface MessageInput extends CommonInput {
  content?: string | null;
  parts?: Json[] | null;
}
export interface ReasoningInput extends CommonInput {
  content?: string | null;
  modelName?: string | null;
  /** Not in GraphQL: what the model loop keeps to send the reasoning back upstream (encrypted content, a signature). */
  providerFields?: ProviderFields | null;
}
export interface ToolCallInput extends CommonInput {
  callId?: string | null;
  toolName?: string | null;
  args?: Json | null;
}
export interface ToolResultInput extends CommonInput {
  callId?: string | null;
  toolName?: string | null;
  content?: string | null;
  isError?: boolean | null;
}

/** The GraphQL `@oneOf` input: exactly one field is set. */
export interface HistoryEventInput {
  human?: MessageInput | null;
  ai?: MessageInput | null;
  system?: MessageInput | null;
  reasoning?: ReasoningInput | null;
  toolCall?: ToolCallInput | null;
  toolResult?: ToolResultInput | null;
}

export interface NewEvent {
  type: HistoryEventType;
  content: string | null;
  parts: Json[] | null;
  modelName: string | null;
  callId: string | null;
  toolName: string | null;
  args: Json | null;
  isError: boolean | null;
  metadata: Record<string, unknown>;
  createdAt: Date | null;
  /** Set by imports (src/formats): what the OpenAI message carried beyond the columns above. */
  providerFields?: ProviderFields | null;
}

/** An event of `type` with every field empty, to fill in. */
export const blankEvent = (type: HistoryEventType, fields: Partial<NewEvent> = {}): NewEvent => ({
  type,
  content: null,
  parts: null,
  modelName: null,
  callId: null,
  toolName: null,
  args: null,
  isError: null,
  metadata: {},
  createdAt: null,
  ...fields,
});
