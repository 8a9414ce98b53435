// A server-sent-events body that a turn writes into as it runs. A client that goes away stops
// receiving frames, not the turn: the turn goes on and is stored.
export interface SseBody {
  /** Writes one frame (already framed); nothing once the client has gone or the body is closed. */
  write(frame: string): void;
  close(): void;
  /** The HTTP answer carrying the frames. */
  response(headers?: Record<string, string>): Response;
}

export function sseBody(): SseBody {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => void (open = false),
  });
  return {
    write(frame) {
      if (open) controller.enqueue(encoder.encode(frame));
    },
    close() {
      if (open) controller.close();
      open = false;
    },
    response: (headers = {}) =>
      new Response(body, {
        headers: {
          "content-type": "text/event-stream; charset=utf-8",
          "cache-control": "no-cache",
          connection: "keep-alive",
          ...headers,
        },
      }),
  };
}
