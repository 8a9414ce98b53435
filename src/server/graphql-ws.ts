// graphql-ws on the GraphQL path. Operations run through `yoga.getEnveloped`, so WebSocket and
// HTTP share plugins, context, limits and error masking. What is particular to a socket lives
// here: the API key is checked once, at connection_init (connectionParams `authorization:
// "Bearer <key>"` or `apiKey`, else the upgrade request's Authorization header) and the connection
// admitted by the connection policy (connection-policy.ts: caps, unsent bytes, revocation); each
// operation counts against the key's rate limit; and the socket limits: the largest message, the
// time allowed before connection_init, and how many operations one connection may run at once.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { ExecutionArgs, ExecutionResult } from "graphql";
import { GraphQLError, getOperationAST } from "graphql";
import type { Context as WsContext, SubscribePayload } from "graphql-ws";
import { type Extra, useServer } from "graphql-ws/use/ws";
import { type WebSocket, WebSocketServer } from "ws";
import type { App } from "./app.js";
import type { Context as AppContext } from "../schema/context.js";
import { refusal } from "../auth/access-control.js";
import type { Viewer } from "../auth/authenticator.js";
import { rateLimitedError } from "../auth/rate-limit.js";
import { sendAsNextMessages } from "./graphql-ws-next-messages.js";
import { directLaneOf } from "../live/direct-delivery.js";
import { claimTenant, emitsAsTenantWork } from "../db/tenant-work.js";
import { logger } from "../logger.js";
import { requestIdOf } from "../request-id.js";
import { KEY_REVOKED, TOO_MANY_CONNECTIONS } from "../connections/connection-policy.js";
import {
  clientWentAway,
  handTurnTo,
  subscriptionsBusyError,
  turnBeforeOperation,
} from "../connections/subscription-pacing.js";

// graphql-ws hands these back to execute/subscribe, so WebSocket operations run through the
// same envelop pipeline (plugins, context, error masking) as HTTP ones.
interface EnvelopedArgs extends ExecutionArgs {
  rootValue: { execute: (args: ExecutionArgs) => unknown; subscribe: (args: ExecutionArgs) => unknown };
}

/** What a connection keeps from connection_init on, in graphql-ws's per-connection `extra`. */
interface Connection {
  viewer: Viewer;
  /**
   * The upgrade request as its operations see it. It is a GET, and Yoga refuses mutations "via
   * GET" (a CSRF guard for links and forms, which cannot open a WebSocket); a socket's operations
   * arrive as POSTed operations would, so an agent streams tokens with mutations over the
   * connection it already holds.
   */
  asPost: IncomingMessage;
}

type ConnectionContext = WsContext<Record<string, unknown> | undefined, Extra & Partial<Connection>>;

export interface GraphqlWsOptions {
  keepAliveMs: number;
}

/** graphql-ws for `app`; its upgrades come from the server's one dispatcher (src/server/http-server.ts). */
export function createGraphqlWs(app: App, options: GraphqlWsOptions) {
  const { limits } = app.services;
  const sockets = new WebSocketServer({ noServer: true, maxPayload: limits.bodyBytes });
  sockets.on("connection", (socket) => {
    quietOversizedMessages(socket, limits.bodyBytes);
    // The socket's messages are its tenant's work once connection_init names the caller.
    emitsAsTenantWork(socket, {
      tenantId: undefined,
      share: app.services.tenantReads,
      concurrency: limits.tenantDbConcurrency,
    });
  });

  const graphqlWs = useServer<Record<string, unknown> | undefined, Partial<Connection>>(
    {
      connectionInitWaitTimeout: limits.wsConnectionInitTimeoutMs,
      onConnect: (ctx) => connect(app, ctx),
      execute: (args) => (args as EnvelopedArgs).rootValue.execute(args) as never,
      subscribe: (args) => (args as EnvelopedArgs).rootValue.subscribe(args) as never,
      onSubscribe: (ctx, id, payload) => pacedOperation(app, ctx, id, payload),
      // A subscription's results go out serialised once for all the subscribers that share them.
      onOperation: (ctx, id, _payload, args, result) =>
        Symbol.asyncIterator in result
          ? sendAsNextMessages(
              ctx.extra.socket,
              id,
              result as AsyncIterable<ExecutionResult>,
              ctx.extra.request.socket,
              directLaneOf(args.contextValue as object),
            )
          : undefined,
    },
    sockets,
    options.keepAliveMs,
  );

  return {
    sockets,
    handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
      sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit("connection", ws, request));
    },
    async dispose() {
      // Completes every WebSocket subscription and closes the sockets (code 1001, going away).
      await graphqlWs.dispose();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
    },
  };
}

/** connection_init: the caller, then the connection policy; a refused socket is closed with the reason. */
async function connect(app: App, ctx: ConnectionContext): Promise<boolean> {
  const { request, socket } = ctx.extra;
  try {
    const viewer = await app.authenticator.authenticate(credentialOf(ctx.connectionParams, request));
    // Counted, capped, watched for unsent bytes and closed on revocation (connection-policy.ts).
    const refused = app.connections.admit(viewer, "graphql-ws", request.socket, () =>
      socket.close(KEY_REVOKED, "API key revoked"),
    );
    if (refused) {
      socket.close(TOO_MANY_CONNECTIONS, refused.message);
      return false;
    }
    ctx.extra.viewer = viewer;
    claimTenant(viewer.tenantId);
    ctx.extra.asPost = Object.create(request, { method: { value: "POST" } }) as IncomingMessage;
    return true;
  } catch (error) {
    const refused = refusal(error);
    // 4401 tells graphql-ws clients not to retry; 1013 (try again later) that they may.
    const unavailable = refused.extensions.code === "UNAVAILABLE";
    socket.close(unavailable ? 1013 : 4401, refused.message.slice(0, 120));
    return false;
  }
}

/**
 * A subscription waits for its turn to start before any of its work (subscription-pacing.ts); the
 * turn is given back once the subscription has started, or at once for anything else.
 */
async function pacedOperation(
  app: App,
  ctx: ConnectionContext,
  id: string,
  payload: SubscribePayload,
): Promise<EnvelopedArgs | readonly GraphQLError[]> {
  const { limits } = app.services;
  // graphql-ws has already counted this operation; checked before waiting, while the count is
  // still the operations that came before it.
  if (Object.keys(ctx.subscriptions).length > limits.subscriptionsPerConnection) {
    return [tooManyOperations(limits.subscriptionsPerConnection)];
  }
  const turn = await turnBeforeOperation(
    app.subscriptionStarts,
    payload,
    ctx.extra.viewer?.tenantId ?? "",
    () => ctx.extra.socket.readyState !== 1,
  );
  if (turn === "busy") return [subscriptionsBusyError()];
  if (turn === "gone") return [clientWentAway()];
  const prepared = await checkedOperation(app, ctx, id, payload).catch((error: unknown) => {
    turn?.done();
    throw error;
  });
  if (!turn) return prepared;
  if (isRefusal(prepared) || !isSubscription(prepared)) turn.done();
  else handTurnTo(prepared.contextValue as object, turn);
  return prepared;
}

async function checkedOperation(app: App, ctx: ConnectionContext, id: string, payload: SubscribePayload) {
  const refused = await refuseOperation(app, ctx);
  return refused ? [refused] : envelopedOperation(app, ctx, id, payload);
}

const isRefusal = (prepared: EnvelopedArgs | readonly GraphQLError[]): prepared is readonly GraphQLError[] =>
  Array.isArray(prepared);

const isSubscription = (args: EnvelopedArgs) =>
  getOperationAST(args.document, args.operationName)?.operation === "subscription";

/** Over the key's rate limit: the error to answer with. */
async function refuseOperation(app: App, ctx: ConnectionContext): Promise<GraphQLError | null> {
  const { keyId } = ctx.extra.viewer!;
  if (!keyId) return null;
  const decision = await app.rateLimiter.consume(keyId);
  if (decision.allowed) return null;
  const refused = rateLimitedError(decision);
  // No HTTP status on a WebSocket: keep the code and the wait only.
  const { http: _http, ...extensions } = refused.extensions;
  return new GraphQLError(refused.message, { extensions });
}

/** The operation as Yoga's pipeline runs it (parsed, validated, with its context), or its errors. */
async function envelopedOperation(
  app: App,
  ctx: ConnectionContext,
  id: string,
  payload: SubscribePayload,
): Promise<EnvelopedArgs | readonly GraphQLError[]> {
  const { asPost: request, viewer, socket } = ctx.extra as Extra & Connection;
  const { schema, execute, subscribe, contextFactory, parse, validate } = app.yoga.getEnveloped({
    ...ctx,
    req: request,
    request,
    socket,
    viewer,
    params: payload,
  });
  let document;
  try {
    document = parse(payload.query);
  } catch (error) {
    if (error instanceof GraphQLError) return [error];
    throw error;
  }
  const contextValue = (await contextFactory()) as AppContext;
  // One id per operation, grouped under the connection's.
  contextValue.requestId = `${requestIdOf(request)}/${id}`;
  const args: EnvelopedArgs = {
    schema,
    operationName: payload.operationName,
    document,
    variableValues: payload.variables,
    contextValue,
    rootValue: { execute, subscribe },
  };
  const errors = validate(args.schema, args.document);
  return errors.length ? errors : args;
}

/** The credential a WebSocket client offers, as an Authorization header value. */
function credentialOf(params: Record<string, unknown> | undefined, request: IncomingMessage) {
  const offered = params?.authorization ?? params?.Authorization;
  if (typeof offered === "string") return offered;
  if (typeof params?.apiKey === "string") return `Bearer ${params.apiKey}`;
  return request.headers.authorization ?? null;
}

function tooManyOperations(limit: number) {
  return new GraphQLError(`At most ${limit} operations may run at once on one connection`, {
    extensions: { code: "TOO_MANY_SUBSCRIPTIONS", limit },
  });
}

/**
 * ws refuses a message over maxPayload by closing the socket with 1009 and emitting an `error`,
 * which graphql-ws logs with its whole stack as an internal error. A client sending too much is
 * the client's mistake, possibly repeated by the thousand: it gets one line. (Registered before
 * graphql-ws's own listener, so the error never reaches it.)
 */
function quietOversizedMessages(socket: WebSocket, limit: number) {
  const emit = socket.emit.bind(socket);
  socket.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event === "error" && (args[0] as { code?: string } | undefined)?.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") {
      logger.warn(`[ws] closed a WebSocket with 1009: a message over ${limit} bytes (MAX_BODY_BYTES)`);
      return true;
    }
    return emit(event, ...args);
  }) as typeof socket.emit;
}
