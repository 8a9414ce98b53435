// MAX_BODY_BYTES on /graphql, as Yoga's own limit (`maxRequestBodySize`) enforces it: 400 for a
// Content-Length that is not one non-negative integer, 413 REQUEST_ENTITY_TOO_LARGE for a declared
// length beyond the limit, and a body that has no Content-Length counted as it streams in. Yoga
// also streams every other body through a counting TransformStream, which costs a request about
// a tenth of a small write's CPU (bench/scenarios/write.ts). A request that came through
// node:http with a Content-Length needs no counting: Node's HTTP parser hands on exactly that
// many bytes, never more. Requests without a socket (`app.fetch`) are still counted as they stream.
import { createGraphQLError, type Plugin } from "graphql-yoga";
import type { ServerContext } from "./context.js";

const CONTENT_LENGTH = /^\d+$/;

const tooLarge = () =>
  createGraphQLError("Request body too large", {
    extensions: { http: { status: 413 }, code: "REQUEST_ENTITY_TOO_LARGE" },
  });

/** Replaces Yoga's limit (`maxRequestBodySize: false`); must come after the request parsers, as Yoga's does. */
export function useBodyLimit(limit: number): Plugin<Record<string, unknown>, ServerContext> {
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI, serverContext }) {
      const contentLength = request.headers.get("content-length");
      if (contentLength != null) {
        if (!CONTENT_LENGTH.test(contentLength)) {
          throw createGraphQLError("Content-Length header is invalid.", {
            extensions: { http: { status: 400 }, code: "BAD_REQUEST" },
          });
        }
        if (Number(contentLength) > limit) throw tooLarge();
        if (serverContext.req) return; // node:http delivers exactly Content-Length bytes
      }
      if (requestParser == null || request.body == null) return;
      setRequestParser((req) => requestParser(countedBody(req, limit, fetchAPI)));
    },
  };
}

/** The request with its body counted as it streams, failing past `limit` (Yoga's limitRequestBodySize). */
function countedBody(
  request: Request,
  limit: number,
  fetchAPI: { TransformStream: typeof TransformStream; Request: typeof Request },
) {
  // A native ReadableStream needs the native TransformStream (graphql-hive/graphql-yoga#4583).
  const Transform = request.body instanceof ReadableStream ? globalThis.TransformStream : fetchAPI.TransformStream;
  let bytesRead = 0;
  const body = request.body!.pipeThrough(
    new Transform<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytesRead += chunk.byteLength;
        if (bytesRead > limit) return controller.error(tooLarge());
        controller.enqueue(chunk);
      },
    }),
  );
  return new fetchAPI.Request(request.url, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    body,
    duplex: "half",
  } as RequestInit);
}
