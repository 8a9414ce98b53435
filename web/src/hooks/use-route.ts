// The viewer's two places: the dialog list alone (/), and a dialog (/dialogs/<id>, with
// ?response=<id> to show a branch other than the head's). Real paths, so links can be shared and
// opened directly; the server answers every such path with index.html.
import { useEffect, useState } from "react";

export interface Route {
  dialogId: string | null;
  responseId: string | null;
}

export function parseRoute(location: { pathname: string; search: string }): Route {
  const match = /^\/dialogs\/([^/]+)\/?$/.exec(location.pathname);
  const responseId = new URLSearchParams(location.search).get("response");
  return { dialogId: match ? decodeURIComponent(match[1]!) : null, responseId: match ? responseId : null };
}

export function dialogPath(dialogId: string, responseId?: string | null) {
  const path = `/dialogs/${encodeURIComponent(dialogId)}`;
  return responseId ? `${path}?response=${encodeURIComponent(responseId)}` : path;
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
