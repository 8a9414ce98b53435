// Tells the app when the server refuses the caller, whatever the transport: over HTTP a 401 whose
// GraphQL error has code UNAUTHENTICATED; over graphql-ws the socket closed with 4401 (no valid
// key at connection_init) or 4403 (its key was revoked while open). Rate limiting (429) and an
// unreachable database (503) are not refusals: a key would not help.
import { type CombinedError, type Exchange, mapExchange } from "urql";

const REFUSED_CLOSE_CODES = new Set([4401, 4403]);

/** The server's reason when `error` is a refusal of the caller's key, else null. */
export function refusalReason(error: CombinedError): string | null {
  const refused = error.graphQLErrors.find((e) => e.extensions?.["code"] === "UNAUTHENTICATED");
  if (refused) return refused.message;
  // graphql-ws ends a subscription on a closed socket with the CloseEvent itself.
  const closed = error.networkError as unknown as { code?: unknown; reason?: unknown } | undefined;
  if (typeof closed?.code === "number" && REFUSED_CLOSE_CODES.has(closed.code)) {
    return typeof closed.reason === "string" && closed.reason ? closed.reason : "API key refused";
  }
  if ((error.response as Response | undefined)?.status === 401) return error.message;
  return null;
}

export function refusalExchange(onUnauthenticated: (reason: string) => void): Exchange {
  return mapExchange({
    onError(error) {
      const reason = refusalReason(error);
      if (reason !== null) onUnauthenticated(reason);
    },
  });
}
