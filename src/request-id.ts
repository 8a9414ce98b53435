// Every request gets an id, echoed in the `x-request-id` response header and attached to any
// unexpected error it reports, so a user can quote it and an operator can find the log line. A
// load balancer's id (a sane `x-request-id` header) is kept, so the trail spans both.
import { randomUUID } from "node:crypto";
import type { ServerAdapterPlugin } from "@whatwg-node/server";

const ids = new WeakMap<object, string>();
const SANE_ID = /^[\w.:-]{1,128}$/;

/** The id of an HTTP request (made when first asked) or a fresh one for anything else. */
export function requestIdOf(request: object | undefined | null): string {
  if (!request) return randomUUID();
  let id = ids.get(request);
  if (!id) {
    const offered = headerOf(request, "x-request-id");
    id = offered && SANE_ID.test(offered) ? offered : randomUUID();
    ids.set(request, id);
  }
  return id;
}

/** A plugin of the server in front (src/server/app.ts): every answer, whatever its route, carries its id. */
export function useRequestId(): ServerAdapterPlugin {
  return {
    onRequest({ request }) {
      requestIdOf(request);
    },
    onResponse({ request, response }) {
      response.headers.set("x-request-id", requestIdOf(request));
    },
  };
}

/** A header of a Fetch Request or of a Node IncomingMessage (WebSocket upgrades). */
export function headerOf(request: object, name: string): string | undefined {
  const headers = (request as { headers?: unknown }).headers;
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}
