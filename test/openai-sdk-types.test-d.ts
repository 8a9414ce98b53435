// Compile-time test (run by `tsc --noEmit`, the first half of `npm test`): what dialogql exports
// is assignable to the real `openai` SDK's input types, so `client.chat.completions.create({
// messages })` and `client.responses.create({ input })` accept it without casts. If the SDK or
// our types drift apart, `npm test` fails here before any test runs.
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionContentPartImage,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionSystemMessageParam,
  ChatCompletionToolMessageParam,
  ChatCompletionUserMessageParam,
} from "openai/resources/chat/completions";
import type {
  EasyInputMessage,
  ResponseFunctionToolCall,
  ResponseInputContent,
  ResponseInputItem,
  ResponseOutputMessage,
  ResponseReasoningItem,
} from "openai/resources/responses/responses";
import type {
  ChatAssistantMessage,
  ChatImagePart,
  ChatMessage,
  ChatSystemMessage,
  ChatToolCall,
  ChatToolMessage,
  ChatUserMessage,
  ChatUserPart,
} from "../src/formats/openai-chat.js";
import type {
  ResponsesFunctionCallItem,
  ResponsesFunctionCallOutputItem,
  ResponsesInputPart,
  ResponsesItem,
  ResponsesMessageItem,
  ResponsesOutputMessageItem,
  ResponsesReasoningItem,
} from "../src/formats/openai-responses.js";

/** Compiles only when A is assignable to B. */
type Assignable<A extends B, B> = A;

// The SDK here is openai 6, the last line that runs on Node 20 (this project's engine; openai 7
// needs Node 22). Its Chat Completions types know image `detail` without "original", which
// openai 7 added (its Responses types have it already); dialogql reads and writes "original" in
// both APIs. The Chat checks below therefore take that one value out and compare all the rest.
type ImageDetail = NonNullable<ChatImagePart["image_url"]["detail"]>;
export type OnlyOriginalIsNew = [
  Assignable<Exclude<ImageDetail, "original">, NonNullable<ChatCompletionContentPartImage["image_url"]["detail"]>>,
];
type Sdk6Part<P> = P extends ChatImagePart
  ? Omit<P, "image_url"> & { image_url: Omit<P["image_url"], "detail"> & { detail?: Exclude<ImageDetail, "original"> } }
  : P;
type Sdk6UserMessage = Omit<ChatUserMessage, "content"> & { content: string | Sdk6Part<ChatUserPart>[] };
type Sdk6Message<M> = M extends ChatUserMessage ? Sdk6UserMessage : M;

// Whole lists, as the SDK's create() calls take them.
export type ChatList = Assignable<Sdk6Message<ChatMessage>[], ChatCompletionMessageParam[]>;
export type ResponsesList = Assignable<ResponsesItem[], ResponseInputItem[]>;

// Member by member, so a type that silently widened to `never` or `any` elsewhere still fails.
export type Chat = [
  Assignable<ChatSystemMessage, ChatCompletionSystemMessageParam | ChatCompletionMessageParam>,
  Assignable<Sdk6UserMessage, ChatCompletionUserMessageParam>,
  Assignable<Sdk6Part<ChatUserPart>, ChatCompletionContentPart>,
  Assignable<ChatAssistantMessage, ChatCompletionAssistantMessageParam>,
  Assignable<ChatToolCall, ChatCompletionMessageToolCall>,
  Assignable<ChatToolMessage, ChatCompletionToolMessageParam>,
];
export type Responses = [
  Assignable<ResponsesMessageItem, EasyInputMessage>,
  Assignable<ResponsesInputPart, ResponseInputContent>,
  Assignable<ResponsesOutputMessageItem, ResponseOutputMessage>,
  Assignable<ResponsesFunctionCallItem, ResponseFunctionToolCall>,
  Assignable<ResponsesFunctionCallOutputItem, ResponseInputItem.FunctionCallOutput>,
  Assignable<ResponsesReasoningItem, ResponseReasoningItem>,
];

// The check bites: a tool message without tool_call_id is not a chat message, and a reasoning
// item without its id is not a Responses input item.
// @ts-expect-error tool_call_id is required
export type NotChat = Assignable<{ role: "tool"; content: string }, ChatCompletionMessageParam>;
// @ts-expect-error a reasoning item needs its id
export type NotResponses = Assignable<{ type: "reasoning"; summary: [] }, ResponseInputItem>;
