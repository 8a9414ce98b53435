// In-flight text in tests: an agent that streams text through the streamText mutation, and a
// subscriber that keeps what historyDelta delivers (events and in-flight text) with the client's
// own applyHistoryDelta, so its view can be compared with the committed history.
import type { ResultOf, VariablesOf } from "@graphql-typed-document-node/core";
import { applyHistoryDelta } from "../../src/client/apply-history-delta.js";
import { type InFlightTexts, textOffsetsOf } from "../../src/client/in-flight-text.js";
import { graphql } from "../../src/client/generated/index.js";
import { type Iterating, type Result, subscribe } from "./live.js";

export const STREAM_TEXT = graphql(`
  mutation AgentStreamText($input: StreamTextInput!) {
    streamText(input: $input) {
      __typename
      ... on TextPosition {
        responseId
        part
        type
        offset
        length
      }
      ... on Error {
        message
        code
      }
      ... on TextOffsetError {
        expectedOffset
        heldPart
      }
      ... on ValidationError {
        fieldErrors {
          path
          message
        }
      }
    }
  }
`);

export const TEXT_DELTAS = graphql(`
  subscription TextDeltas($dialogId: ID!, $afterSeq: Int, $textOffsets: [TextOffsetInput!]) {
    historyDelta(dialogId: $dialogId, afterSeq: $afterSeq, textOffsets: $textOffsets) {
      dialogId
      responseId
      seq
      previousSeq
      status
      endsTextPart
      cleared
      responseDeleted
      text {
        responseId
        part
        type
        offset
        delta
      }
      append {
        __typename
        ... on BaseHistoryEvent {
          id
          seq
          metadata
          response {
            id
          }
        }
        ... on AiEvent {
          content
        }
        ... on ReasoningEvent {
          content
        }
        ... on HumanEvent {
          content
        }
      }
    }
  }
`);

type TextDeltasData = ResultOf<typeof TEXT_DELTAS>;
type TextDeltasVariables = VariablesOf<typeof TEXT_DELTAS>;
export type TextDelta = TextDeltasData["historyDelta"];

export interface SeenEvent {
  __typename: string;
  id: string;
  seq: number;
  content?: string;
  metadata: Record<string, unknown>;
  response?: { id: string };
}

/** One historyDelta subscription's view: committed events, in-flight text, and every raw delta. */
export class TextSubscriber {
  /** What applyHistoryDelta keeps: starts with a stand-in for the seq subscribed after. */
  private history: SeenEvent[] = [];
  inFlight: InFlightTexts = {};
  deltas: TextDelta[] = [];
  /** Characters received more than once or with a gap before them (both must stay 0). */
  duplicates = 0;
  gaps = 0;
  error: unknown = null;
  private waiters: (() => void)[] = [];
  private stop: () => void;

  constructor(
    iterate: (variables: TextDeltasVariables) => AsyncIterableIterator<Result<TextDeltasData>>,
    variables: TextDeltasVariables,
    seed?: { history: SeenEvent[]; inFlight: InFlightTexts },
  ) {
    if (seed) {
      this.history = [...seed.history];
      this.inFlight = structuredClone(seed.inFlight);
    } else if (typeof variables.afterSeq === "number" && variables.afterSeq > 0) {
      this.history = [{ __typename: "seen before", id: "", seq: variables.afterSeq, metadata: {} }];
    }
    const results = iterate(variables);
    this.stop = () => void results.return?.();
    void (async () => {
      try {
        for await (const result of results) {
          if (result.errors?.length) throw new Error(JSON.stringify(result.errors));
          this.receive(result.data!.historyDelta);
        }
      } catch (error) {
        this.error = error;
      }
      this.notify();
    })();
  }

  private receive(delta: TextDelta) {
    this.deltas.push(delta);
    const outcome = applyHistoryDelta(this.history, delta, { inFlight: this.inFlight });
    if (outcome.status === "text" && outcome.text.status === "duplicate") this.duplicates++;
    if (outcome.status === "text" && outcome.text.status === "gap") this.gaps++;
    if (outcome.status === "duplicate") this.duplicates++;
    if (outcome.status === "gap") this.gaps++;
    this.notify();
  }

  private notify() {
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves once `test` holds (checked after every delta); fails after `timeoutMs`. */
  async until(test: (self: this) => boolean, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!test(this)) {
      if (this.error) throw this.error;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`condition not met; last deltas: ${JSON.stringify(this.deltas.slice(-3))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** What a subscription resuming where this one is needs: its variables and what it holds. */
  resumePoint(dialogId: string) {
    return {
      variables: { dialogId, afterSeq: this.history.at(-1)?.seq ?? 0, textOffsets: textOffsetsOf(this.inFlight) },
      seed: { history: [...this.history], inFlight: structuredClone(this.inFlight) },
    };
  }

  /** The committed events received (and those it was seeded with). */
  get events() {
    return this.history.filter((event) => event.id);
  }

  textOf(responseId: string) {
    return this.inFlight[responseId]?.text ?? "";
  }

  close() {
    this.stop();
  }
}

/** TEXT_DELTAS subscriptions over `client` (graphql-ws or graphql-sse). */
export function iterateTextDeltas(client: Iterating) {
  return (variables: TextDeltasVariables) => subscribe(client, TEXT_DELTAS, variables);
}
