// A historyDelta subscriber that behaves like a careful client: it records every event seq it is
// sent and, whenever its subscription ends or fails (a server dropped it, the database was away),
// subscribes again with afterSeq = the last seq it has. Tests then check that it saw every seq
// exactly once.
import { createClient as createSseClient } from "graphql-sse";
import { createClient as createWsClient } from "graphql-ws";
import WebSocket from "ws";
import { graphql } from "../../src/client/generated/index.js";
import { subscribe } from "./live.js";

const SUBSCRIPTION = graphql(`
  subscription ResumingHistoryDelta($dialogId: ID!, $afterSeq: Int) {
    historyDelta(dialogId: $dialogId, afterSeq: $afterSeq) {
      seq
      previousSeq
      append {
        ... on BaseHistoryEvent {
          seq
        }
      }
    }
  }
`);

export interface ResumingSubscriber {
  /** Every event seq received, in arrival order (a duplicate shows up twice). */
  seqs: number[];
  /** How many times the subscription was made again after ending. */
  resumes: number;
  /** Errors the server sent (their extensions.code), for assertions on what clients are told. */
  errorCodes: string[];
  lastSeq(): number;
  waitFor(seq: number, timeoutMs: number): Promise<void>;
  stop(): void;
}

export function resumingSubscriber(
  baseUrl: string,
  transport: "ws" | "sse",
  dialogId: string,
  headers: Record<string, string> = {},
): ResumingSubscriber {
  let stopped = false;
  let dispose: () => void = () => undefined;
  const waiters = new Set<() => void>();
  const state: ResumingSubscriber = {
    seqs: [],
    resumes: 0,
    errorCodes: [],
    lastSeq: () => Math.max(0, ...state.seqs),
    waitFor: (seq, timeoutMs) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (state.lastSeq() < seq) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${transport} subscriber reached seq ${state.lastSeq()}, not ${seq}, in ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    stop() {
      stopped = true;
      dispose();
    },
  };

  const run = async () => {
    while (!stopped) {
      const client =
        transport === "ws"
          ? createWsClient({
              url: `${baseUrl.replace(/^http/, "ws")}/graphql`,
              webSocketImpl: WebSocket,
              retryAttempts: 0,
              connectionParams: headers.authorization ? { authorization: headers.authorization } : undefined,
            })
          : createSseClient({ url: `${baseUrl}/graphql`, retryAttempts: 0, headers });
      dispose = () => void client.dispose();
      try {
        const results = subscribe(client, SUBSCRIPTION, { dialogId, afterSeq: state.lastSeq() });
        for await (const result of results) {
          if (result.errors?.length) {
            state.errorCodes.push(...result.errors.map((e) => String(e.extensions?.code)));
            continue;
          }
          state.seqs.push(...result.data!.historyDelta.append.map((event) => event.seq));
          waiters.forEach((check) => check());
        }
      } catch (error) {
        const errors = Array.isArray(error) ? error : [];
        state.errorCodes.push(...errors.map((e: { extensions?: { code?: string } }) => String(e.extensions?.code)));
      } finally {
        void client.dispose();
      }
      if (stopped) break;
      state.resumes++;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  void run();
  return state;
}
