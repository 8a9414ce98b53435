// GraphiQL works on a closed network: in real Chromium with every request outside this machine
// refused, /graphql shows GraphiQL (its scripts come inline from the npm package, never a CDN),
// and it runs a query against the server. The viewer links to it only where it is served: a
// production server (GraphiQL off) would answer the link with 403.
import { beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../src/server/http-server.js";
import { CHROMIUM, hasChromium, launchBrowser, openPage } from "./support/browser.js";
import { httpExecutor, startTestServer } from "./support/live.js";
import { graphql } from "../src/client/generated/index.js";

if (!hasChromium) console.warn(`GraphiQL test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

let server: RunningServer;
beforeAll(async () => {
  if (hasChromium) server = await startTestServer();
});

const CREATE_RESPONSE = graphql(`
  mutation GraphiqlCreateResponse {
    createResponse(input: { input: [{ human: { content: "from GraphiQL" } }] }) {
      ... on Response {
        dialog {
          id
        }
      }
    }
  }
`);

describe.runIf(hasChromium)("GraphiQL at /graphql", () => {
  it("loads with the outside network blocked and runs a query", async () => {
    const { createResponse } = await httpExecutor(server)(CREATE_RESPONSE);
    const dialogId = createResponse.dialog.id as string;

    const page = await (await launchBrowser()).newPage();
    const outside: string[] = [];
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === "127.0.0.1" || url.hostname === "localhost") return route.continue();
      outside.push(url.href);
      return route.abort("internetdisconnected");
    });
    const query = `query One { dialog(id: "${dialogId}") { id history { totalMessages } } }`;
    await page.goto(`${server.url}/graphql?query=${encodeURIComponent(query)}`);
    expect(await page.title()).toBe("dialogql");
    await page.locator(".graphiql-execute-button").click({ timeout: 30_000 });
    // The result pane is an editor: its spaces are non-breaking ones.
    const result = async () => (await page.locator(".graphiql-response").innerText()).replace(/\s+/g, " ");
    await expect.poll(result, { timeout: 20_000 }).toContain(`"totalMessages": 1`);
    expect(await result()).toContain(`"id": "${dialogId}"`);
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("is linked from the viewer's sidebar only when the server serves it", async () => {
    const production = await startTestServer({ graphiql: false });
    for (const [running, served] of [
      [server, true],
      [production, false],
    ] as const) {
      const { page, errors } = await openPage(`${running.url}/`);
      await page.locator("[data-testid=new-chat-button]").waitFor({ timeout: 20_000 });
      expect(await page.locator(".graphiql-link").count()).toBe(served ? 1 : 0);
      const answer = await fetch(`${running.url}/graphql`, { headers: { accept: "text/html" } });
      expect(answer.ok).toBe(served);
      expect(errors).toEqual([]);
      await page.close();
    }
  });
});
