// The web viewer at `/`: the static build in web/dist (made by `npm run build:web`, which
// `npm install` runs), served for every GET and HEAD the router (src/server/routes.ts) has no
// other route for. The viewer's own routes (`/`, `/dialogs/<id>`, `/shared/<token>`, the pages
// of VIEWER_PAGES) get index.html, so a deep link opens the viewer there; any other path without a
// file is 404. Nothing is built at start-up, to keep start-up fast. The page says whether GraphiQL is
// served (`<meta name="dialogql-graphiql">`), so the viewer links to it only when it answers.
import { readFile } from "node:fs/promises";
import path from "node:path";

export const DEFAULT_VIEWER_ROOT = path.resolve(import.meta.dirname, "../../web/dist");

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".map": "application/json",
  ".woff2": "font/woff2",
};

export interface ViewerSettings {
  /** Whether /graphql serves GraphiQL (config.GRAPHIQL, off in production). */
  graphiql: boolean;
}

export async function serveViewer(
  root: string,
  pathname: string,
  settings: ViewerSettings = { graphiql: true },
): Promise<Response> {
  let relative: string;
  try {
    relative = decodeURIComponent(pathname);
  } catch {
    return new Response("Bad path", { status: 400 });
  }
  const file = path.resolve(root, `.${relative}`);
  if (file !== root && !file.startsWith(root + path.sep)) return notFound();

  const extension = path.extname(file);
  if (extension) {
    const body = await readFile(file).catch(() => null);
    if (!body) return notFound();
    // Vite names built assets by content hash: they never change under one name.
    const immutable = relative.startsWith("/assets/");
    return new Response(body, {
      headers: {
        "content-type": contentTypes[extension] ?? "application/octet-stream",
        "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
      },
    });
  }

  if (!isViewerRoute(relative)) return notFound();
  const index = await readFile(path.join(root, "index.html"), "utf8").catch(() => null);
  if (!index) return notBuilt(settings);
  return new Response(withSettings(index, settings), {
    headers: { "content-type": contentTypes[".html"]!, "cache-control": "no-cache" },
  });
}

/** index.html with the settings the viewer reads from its <head> (web/src/lib/server-settings.ts). */
const withSettings = (html: string, settings: ViewerSettings) =>
  html.replace("<head>", `<head>\n    <meta name="dialogql-graphiql" content="${settings.graphiql ? "on" : "off"}" />`);

/** The client-side routes of web/src/hooks/use-route.ts. */
/** Whole pages of the viewer (web/src/slots.tsx `pages`) at /<name>. */
export const VIEWER_PAGES: string[] = ["usage"];

const isViewerRoute = (pathname: string) =>
  pathname === "/" ||
  /^\/(dialogs|shared)\/[^/]+\/?$/.test(pathname) ||
  VIEWER_PAGES.some((page) => pathname === `/${page}` || pathname === `/${page}/`);

const notFound = () =>
  new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });

function notBuilt(settings: ViewerSettings) {
  const api = settings.graphiql ? `GraphQL and GraphiQL: <a href="/graphql">/graphql</a>` : "GraphQL: POST /graphql";
  const page = `<!doctype html><meta charset="utf-8"><title>dialogql</title>
<h1>dialogql</h1>
<p>The web viewer has not been built here. Run <code>npm run build:web</code> (<code>npm install</code> does it)
and reload.</p><p>${api}</p>`;
  return new Response(page, { status: 503, headers: { "content-type": contentTypes[".html"]! } });
}
