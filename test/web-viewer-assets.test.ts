// The server hands out the viewer's static build at `/` (GraphiQL stays on /graphql), answers
// deep links with index.html, and never serves a file from outside the build.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serveViewer } from "../src/server/web-viewer.js";
import { app } from "./support/graphql.js";

const get = (pathname: string, headers: Record<string, string> = {}) =>
  app.fetch(`http://localhost${pathname}`, { headers });

describe("the web viewer's assets", () => {
  it("serves the viewer at / and on deep links, fresh on every load", async () => {
    for (const pathname of ["/", "/dialogs/01JABC", "/dialogs/01JABC?response=resp_1"]) {
      const response = await get(pathname);
      expect(response.status, pathname).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(await response.text()).toContain('<div id="root"></div>');
    }
  });

  it("serves the hashed assets the page names, cached for good", async () => {
    const html = await (await get("/")).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const response = await get(script);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("leaves GraphQL, GraphiQL and the REST endpoint where they were", async () => {
    const graphiql = await get("/graphql", { accept: "text/html" });
    expect(await graphiql.text()).toContain("GraphiQL");
    const rest = await get("/api/dialogs/01JNOSUCH/history");
    expect(rest.status).toBe(404);
    expect(await rest.json()).toEqual({ detail: "Dialog 01JNOSUCH not found" });
  });

  it("answers 404 for missing files and for paths that climb out of the build", async () => {
    for (const pathname of ["/assets/missing.js", "/..%2F..%2Fpackage.json", "/%2e%2e/%2e%2e/package.json"]) {
      expect((await get(pathname)).status, pathname).toBe(404);
    }
  });

  it("explains how to build the viewer when it has not been built", async () => {
    const empty = mkdtempSync(path.join(tmpdir(), "dialogql-no-viewer-"));
    try {
      const response = await serveViewer(empty, "/");
      expect(response.status).toBe(503);
      expect(await response.text()).toContain("npm run build:web");
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
