// generateResponse: a GraphQL client asks the configured model for the next turn and watches it
// arrive; regenerating from an earlier response makes a branch; without a provider the answer is
// a typed ModelNotConfiguredError.
import { beforeAll, describe, expect, it } from "vitest";
import { store, testConfig } from "./support/database.js";
import { createModelCatalog } from "../src/generation/providers.js";
import { startServer } from "../src/server/http-server.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { asCaller, tenantKey, wsAs } from "./support/tenants.js";

let g: GeneratingServer;
let call: ReturnType<typeof asCaller>;
beforeAll(async () => {
  g = await startGeneratingServer();
  call = asCaller(g.server, g.key);
});

const GENERATE = /* GraphQL */ `
  mutation ($input: GenerateResponseInput!) {
    generateResponse(input: $input) {
      __typename
      ... on Response {
        id
        status
        dialog {
          id
        }
        previousResponse {
          id
        }
      }
      ... on Error {
        code
        message
      }
    }
  }
`;

const RESPONSE_UPDATED = /* GraphQL */ `
  subscription ($responseId: ID!) {
    responseUpdated(responseId: $responseId) {
      status
      usage {
        totalTokens
      }
      output {
        __typename
        ... on AiEvent {
          content
        }
      }
    }
  }
`;

/** The response's last state, once its subscription ends (it ends when the response is finished). */
async function whenFinished(responseId: string) {
  let last: any;
  for await (const update of wsAs(g.server, g.key).iterate<any>({
    query: RESPONSE_UPDATED,
    variables: { responseId },
  })) {
    last = update.data.responseUpdated;
  }
  return last;
}

describe("generateResponse", () => {
  it("returns the response at once and the model's answer arrives over the subscription", async () => {
    g.upstream.script({ output: [{ text: "Hi from the model." }], usage: { input: 3, output: 4 } });
    const { body } = await call(GENERATE, { input: { model: "stand-in-1", input: [{ human: { content: "Hello" } }] } });
    const started = body.data.generateResponse;
    expect(body.data.generateResponse.__typename).toBe("Response");
    expect(started.id).toMatch(/^resp_/);
    expect(await whenFinished(started.id)).toEqual({
      status: "COMPLETED",
      usage: { totalTokens: 7 },
      output: [{ __typename: "AiEvent", content: "Hi from the model." }],
    });
  });

  it("regenerating from an earlier response makes a branch with that response's context", async () => {
    g.upstream.script(
      { output: [{ text: "First answer." }] },
      { output: [{ text: "Second." }] },
      { output: [{ text: "Other second." }] },
    );
    const first = (await call(GENERATE, { input: { model: "stand-in-1", input: [{ human: { content: "One" } }] } }))
      .body.data.generateResponse;
    await whenFinished(first.id);
    const dialogId = first.dialog.id;
    const second = (
      await call(GENERATE, { input: { model: "stand-in-1", dialogId, input: [{ human: { content: "Two" } }] } })
    ).body.data.generateResponse;
    expect(second.previousResponse.id).toBe(first.id);
    await whenFinished(second.id);

    const regenerated = (
      await call(GENERATE, {
        input: { model: "stand-in-1", previousResponseId: first.id, input: [{ human: { content: "Two" } }] },
      })
    ).body.data.generateResponse;
    expect(regenerated.previousResponse.id).toBe(first.id);
    await whenFinished(regenerated.id);
    expect(g.upstream.requests.at(-1)!.body.messages).toEqual([
      { role: "user", content: "One" },
      { role: "assistant", content: "First answer." },
      { role: "user", content: "Two" },
    ]);
    const { body } = await call(`query ($id: ID!) { response(id: $id) { children { id } } }`, { id: first.id });
    expect(body.data.response.children.map((child: { id: string }) => child.id).sort()).toEqual(
      [second.id, regenerated.id].sort(),
    );
  });

  it("tells clients whether a model is configured", async () => {
    const { body } = await call(`{ models { configured defaultModel } }`);
    expect(body.data.models).toEqual({ configured: true, defaultModel: "gpt-4o-mini" });
  });

  it("without a provider answers a typed ModelNotConfiguredError and stores nothing", async () => {
    const server = await startServer({
      store,
      config: testConfig,
      port: 0,
      models: createModelCatalog({ UPSTREAM_API: "chat", UPSTREAM_MAX_RETRIES: 0 }),
    });
    try {
      const { key } = await tenantKey("tenant-unconfigured");
      const { body } = await asCaller(server, key)(GENERATE, {
        input: { model: "gpt-4o", input: [{ human: { content: "hi" } }] },
      });
      expect(body.data.generateResponse).toMatchObject({
        __typename: "ModelNotConfiguredError",
        code: "MODEL_NOT_CONFIGURED",
      });
      const models = await asCaller(
        server,
        key,
      )(`{ models { configured defaultModel } dialogs(first: 1) { edges { node { id } } } }`);
      expect(models.body.data).toEqual({ models: { configured: false, defaultModel: null }, dialogs: { edges: [] } });
    } finally {
      await server.close();
    }
  });
});
