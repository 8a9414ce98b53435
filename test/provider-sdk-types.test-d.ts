// Compile-time test (run by `tsc --noEmit`): what the ANTHROPIC_MESSAGES and AI_SDK_UI exports
// produce is assignable to `@anthropic-ai/sdk`'s request types and the `ai` package's UIMessage,
// so `anthropic.messages.create({ model, max_tokens, ...exported })` and `useChat({ messages })`
// take it without casts. test/openai-sdk-types.test-d.ts does the same for the OpenAI formats.
import type {
  ContentBlockParam,
  DocumentBlockParam,
  ImageBlockParam,
  MessageCreateParamsNonStreaming,
  MessageParam,
  RedactedThinkingBlockParam,
  TextBlockParam,
  ThinkingBlockParam,
  ToolResultBlockParam,
  ToolUseBlockParam,
} from "@anthropic-ai/sdk/resources/messages/messages";
import type { DynamicToolUIPart, FileUIPart, ReasoningUIPart, TextUIPart, UIMessage } from "ai";
import type {
  AnthropicBlock,
  AnthropicConversation,
  AnthropicDocumentBlock,
  AnthropicImageBlock,
  AnthropicMessage,
  AnthropicRedactedThinkingBlock,
  AnthropicTextBlock,
  AnthropicThinkingBlock,
  AnthropicToolResultBlock,
  AnthropicToolUseBlock,
} from "../src/formats/anthropic-messages.js";
import type {
  UiDynamicToolPart,
  UiFilePart,
  UiMessage,
  UiPart,
  UiReasoningPart,
  UiTextPart,
} from "../src/formats/ai-sdk-ui.js";

/** Compiles only when A is assignable to B. */
type Assignable<A extends B, B> = A;

export type Anthropic = [
  Assignable<AnthropicConversation, Pick<MessageCreateParamsNonStreaming, "system" | "messages">>,
  Assignable<AnthropicMessage, MessageParam>,
  Assignable<AnthropicBlock, ContentBlockParam>,
  Assignable<AnthropicTextBlock, TextBlockParam>,
  Assignable<AnthropicImageBlock, ImageBlockParam>,
  Assignable<AnthropicDocumentBlock, DocumentBlockParam>,
  Assignable<AnthropicThinkingBlock, ThinkingBlockParam>,
  Assignable<AnthropicRedactedThinkingBlock, RedactedThinkingBlockParam>,
  Assignable<AnthropicToolUseBlock, ToolUseBlockParam>,
  Assignable<AnthropicToolResultBlock, ToolResultBlockParam>,
];

export type AiSdk = [
  Assignable<UiMessage[], UIMessage[]>,
  Assignable<UiPart, UIMessage["parts"][number]>,
  Assignable<UiTextPart, TextUIPart>,
  Assignable<UiReasoningPart, ReasoningUIPart>,
  Assignable<UiFilePart, FileUIPart>,
  Assignable<UiDynamicToolPart, DynamicToolUIPart>,
];

// The check bites: a thinking block without its signature is not an Anthropic block, and a
// UIMessage needs its id.
// @ts-expect-error a thinking block needs its signature
export type NotAnthropic = Assignable<{ type: "thinking"; thinking: string }, ContentBlockParam>;
// @ts-expect-error a UIMessage needs an id
export type NotUi = Assignable<{ role: "user"; parts: [] }, UIMessage>;
