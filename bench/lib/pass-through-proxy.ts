// The least a proxy can add: a Node HTTP server that forwards each request to the upstream and
// pipes the answer back, storing nothing. The generate scenario's floor for "something in between".
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

export async function startPassThroughProxy(upstreamUrl: string) {
  const upstream = new URL(upstreamUrl);
  const server = createServer((incoming, outgoing) => {
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: upstream.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    /** Base URL with the upstream's path prefix, e.g. http://127.0.0.1:port/v1 */
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${upstream.pathname}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
