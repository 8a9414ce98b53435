// A server-sent-events body that a turn writes into as it runs. A client that goes away stops
// receiving frames, not the turn: the turn goes on and is stored. The frames written in one turn
// of the event loop (a turn's opening events, an item's end, the deltas of one upstream read) go
// out as one chunk, at the end of that turn: each chunk costs the web stream's and the HTTP
// response's handling again (docs/performance.md, issue 27).
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
  let pending = "";
  const flush = () => {
    if (open && pending) controller.enqueue(encoder.encode(pending));
    pending = "";
  };
  const body = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => void (open = false),
  });
  return {
    write(frame) {
      if (!open) return;
      if (!pending) setImmediate(flush);
      pending += frame;
    },
    close() {
      flush();
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
