// The viewer's places: the dialog list alone (/), and a dialog (/dialogs/<id>, with
// ?response=<id> to show a branch other than the head's, &event=<seq> to open it at an event, or
// ?compare=<id>,<id> to set two branches side by side). Real paths, so links can be shared and
// opened directly; the server answers every such path with index.html.
import { useEffect, useState } from "react";

export interface Route {
  dialogId: string | null;
  responseId: string | null;
  /** The seq of the event to open the dialog at. */
  eventSeq: number | null;
  /** Two responses whose branches are compared. */
  compare: [string, string] | null;
  /** A page of slots.tsx, at /<name>. */
  page: string | null;
}

export function parseRoute(location: { pathname: string; search: string }): Route {
  const match = /^\/dialogs\/([^/]+)\/?$/.exec(location.pathname);
  const params = new URLSearchParams(location.search);
  if (!match) {
    const page = /^\/([a-z][a-z-]*)\/?$/.exec(location.pathname)?.[1] ?? null;
    return { dialogId: null, responseId: null, eventSeq: null, compare: null, page };
  }
  const seq = Number(params.get("event"));
  const compare = params.get("compare")?.split(",");
  return {
    dialogId: decodeURIComponent(match[1]!),
    responseId: params.get("response"),
    eventSeq: Number.isInteger(seq) && seq > 0 ? seq : null,
    compare: compare?.length === 2 && compare.every(Boolean) ? [compare[0]!, compare[1]!] : null,
    page: null,
  };
}

export function dialogPath(dialogId: string, responseId?: string | null, eventSeq?: number | null) {
  const params = new URLSearchParams();
  if (responseId) params.set("response", responseId);
  if (eventSeq) params.set("event", String(eventSeq));
  const query = params.toString();
  return `/dialogs/${encodeURIComponent(dialogId)}${query ? `?${query}` : ""}`;
}

export function comparePath(dialogId: string, a: string, b: string) {
  return `/dialogs/${encodeURIComponent(dialogId)}?compare=${encodeURIComponent(a)},${encodeURIComponent(b)}`;
}

const NAVIGATE = "dialogql:navigate";

export function navigate(path: string) {
  if (path === window.location.pathname + window.location.search) return;
  window.history.pushState(null, "", path);
  window.dispatchEvent(new Event(NAVIGATE));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location));
  useEffect(() => {
    const update = () => setRoute(parseRoute(window.location));
    window.addEventListener("popstate", update);
    window.addEventListener(NAVIGATE, update);
    return () => {
      window.removeEventListener("popstate", update);
      window.removeEventListener(NAVIGATE, update);
    };
  }, []);
  return route;
}
