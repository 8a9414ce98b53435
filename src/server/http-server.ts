// The network side: one HTTP server for GraphQL (queries, mutations, SSE subscriptions), the
// REST endpoint and GraphiQL, with a graphql-ws WebSocket server on the same /graphql path.
// Used by main.ts and by tests that need real sockets (port 0 picks a free one).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ExecutionArgs } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { createLiveBus, type LiveBus } from "../live/live-bus.js";
import { buildApp } from "./app.js";

export interface ServerOptions {
  port: number;
  host?: string;
  /** Redis for the live fan-out between instances; in-process when not given. */
  redisUrl?: string | null;
  /** Interval of WebSocket keep-alive pings, in ms. */
  keepAliveMs?: number;
}

export interface RunningServer {
  /** http://host:port — GraphQL at /graphql, WebSocket at ws://host:port/graphql. */
  url: string;
  port: number;
  live: LiveBus;
  /** Ends every subscription and socket, then stops listening and closes the live bus. */
  close(): Promise<void>;
}

// graphql-ws hands these back to execute/subscribe, so WebSocket operations run through the
// same envelop pipeline (plugins, context, error masking) as HTTP ones.
interface EnvelopedArgs extends ExecutionArgs {
  rootValue: { execute: (args: ExecutionArgs) => unknown; subscribe: (args: ExecutionArgs) => unknown };
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const live = createLiveBus({ redisUrl: options.redisUrl });
  const yoga = buildApp({ live });
  const server = createServer(yoga);
  const sockets = new WebSocketServer({ server, path: yoga.graphqlEndpoint });

  const graphqlWs = useServer(
    {
      execute: (args) => (args as EnvelopedArgs).rootValue.execute(args) as never,
      subscribe: (args) => (args as EnvelopedArgs).rootValue.subscribe(args) as never,
      onSubscribe: async (ctx, _id, payload) => {
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params: payload,
        });
        const args: EnvelopedArgs = {
          schema,
          operationName: payload.operationName,
          document: parse(payload.query),
          variableValues: payload.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        return errors.length ? errors : args;
      },
    },
    sockets,
    options.keepAliveMs ?? 12_000,
  );

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${options.host && options.host !== "0.0.0.0" ? options.host : "127.0.0.1"}:${port}`,
    port,
    live,
    close: () =>
      (closing ??= (async () => {
        // Completes every WebSocket subscription and closes the sockets (code 1001, going away).
        await graphqlWs.dispose();
        await new Promise<void>((resolve) => sockets.close(() => resolve()));
        // SSE subscriptions are open HTTP responses: end them, or close() would wait for them.
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await live.close();
      })()),
  };
}
