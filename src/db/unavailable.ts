// Recognising "the database cannot be reached" among the errors a call can fail with, so that it
// is answered as UNAVAILABLE (retry later) rather than as a bug. The two layers report it
// differently: Prisma wraps driver failures in coded errors; node-postgres, on a connection lost
// inside a transaction, throws plain Errors.
import { Prisma } from "../generated/prisma/client.js";

// P1001 can't reach, P1002 timed out, P1008 operation timed out, P1017 server closed the
// connection, P2024 timed out waiting for a pooled connection.
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
// Prisma's driver-adapter error kinds for a connection that failed or was lost.
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
// SQLSTATE class 08 (connection exception), 57P01-57P03 (server shutting down or restarting,
// or the backend terminated by an administrator), 53300 (too many connections), 55P03 (a lock not
// had within lock_timeout), 57014 (a statement cancelled by statement_timeout), 25P03 (a
// transaction ended by idle_in_transaction_session_timeout): each is "try again", not a bug.
const SQLSTATE = /^(08...|57P0[123]|53300|55P03|57014|25P03)$/;
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND"]);
const PG_MESSAGES = [
  "Connection terminated",
  "connection error and is not queryable",
  "timeout exceeded when trying to connect",
  "Client was closed and is not queryable",
  "terminating connection due to administrator command",
  "Query read timeout",
];

export function isDatabaseUnavailable(error: unknown): boolean {
  // Errors nest (GraphQLError → Prisma error → driver error): look through a few levels.
  for (let depth = 0, current = error; current != null && depth < 5; depth++) {
    if (matches(current)) return true;
    current = (current as { originalError?: unknown; cause?: unknown }).originalError ?? (current as Error).cause;
  }
  return false;
}

function matches(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (PRISMA_CODES.has(error.code)) return true;
    const cause = (error.meta?.driverAdapterError as { cause?: AdapterCause } | undefined)?.cause;
    return Boolean(cause && adapterCauseMatches(cause));
  }
  if (error instanceof Prisma.PrismaClientInitializationError) return true;
  if (!(error instanceof Error)) return false;
  // The driver adapter's own error, unwrapped (raw queries): its mapped cause is a plain object,
  // e.g. {kind: "postgres", code: "57P03"} while PostgreSQL shuts down and refuses connections.
  if (error.name === "DriverAdapterError") {
    const cause = (error as { cause?: unknown }).cause;
    if (cause && typeof cause === "object" && adapterCauseMatches(cause as AdapterCause)) return true;
  }
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (SOCKET_CODES.has(code) || SQLSTATE.test(code))) return true;
  return PG_MESSAGES.some((text) => error.message.includes(text));
}

interface AdapterCause {
  kind?: string;
  code?: string;
  originalCode?: string;
}

function adapterCauseMatches(cause: AdapterCause) {
  if (cause.kind && ADAPTER_KINDS.has(cause.kind)) return true;
  return [cause.code, cause.originalCode].some((code) => typeof code === "string" && SQLSTATE.test(code));
}
