// The viewer shows an MCP tool call waiting for approval with Approve and Deny; Approve runs the
// call (approveToolCall) and the model's answer arrives live in the page.
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { hasChromium, openPage, screenshot } from "./support/browser.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { type McpServerProcess, startTestMcpServer } from "./support/mcp-servers.js";

let g: GeneratingServer;
let server: McpServerProcess;
beforeAll(async () => {
  if (!hasChromium) return;
  [g, server] = await Promise.all([startGeneratingServer({}, "tenant-a"), startTestMcpServer()]);
});

describe.skipIf(!hasChromium)("the viewer and MCP approvals", () => {
  it("approves a pending tool call from the page", async () => {
    g.upstream.script(
      { output: [{ toolCall: { name: "add", arguments: '{"a":40,"b":2}' } }] },
      { output: [{ text: "The sum is 42." }] },
    );
    const asked = await g.openai.responses.create({
      model: "stand-in-1",
      input: "40+2?",
      tools: [{ type: "mcp", server_label: "calc", server_url: server.url, require_approval: "always" }],
    });
    const { dialogId } = await prisma.response.findUniqueOrThrow({ where: { id: asked.id } });
    const { page, errors } = await openPage(`${g.server.url}/dialogs/${dialogId}`);
    await page.getByLabel("API key").fill(g.key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByTestId("approve-tool-call").click({ timeout: 10_000 });
    await page.getByText("The sum is 42.").waitFor({ timeout: 10_000 });
    await page.getByTestId("tool-approval").getByText("Approved").waitFor({ timeout: 10_000 });
    await screenshot(page, "viewer-tool-approval");
    // Before signing in, the server refuses the page's requests (401): expected.
    expect(errors.filter((error) => !/status of 401/.test(error))).toEqual([]);
  });
});
