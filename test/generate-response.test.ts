// generateResponse: a GraphQL client asks the configured model for the next turn and watches it
// arrive; regenerating from an earlier response makes a branch; without a provider the answer is
// a typed ModelNotConfiguredError.
import type { ResultOf } from "@graphql-typed-document-node/core";
import { beforeAll, describe, expect, it } from "vitest";
import { store, testConfig } from "./support/database.js";
import { createModelCatalog } from "../src/generation/providers.js";
import { startServer } from "../src/server/http-server.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { asCaller, tenantKey, wsAs } from "./support/tenants.js";
import { graphql } from "../src/client/generated/index.js";
import { subscribe } from "./support/live.js";
import { member } from "./support/narrow.js";

let g: GeneratingServer;
let call: ReturnType<typeof asCaller>;
beforeAll(async () => {
  g = await startGeneratingServer();
  call = asCaller(g.server, g.key);
});

const GENERATE = graphql(`
  mutation GenerateResponseGenerateResponse($input: GenerateResponseInput!) {
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
`);

const RESPONSE_UPDATED = graphql(`
  subscription GenerateResponseResponseUpdatedStatus($responseId: ID!) {
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
`);

/** The response's last state, once its subscription ends (it ends when the response is finished). */
async function whenFinished(responseId: string) {
  let last: ResultOf<typeof RESPONSE_UPDATED>["responseUpdated"] | undefined;
  for await (const update of subscribe(wsAs(g.server, g.key), RESPONSE_UPDATED, { responseId })) {
    last = update.data!.responseUpdated;
  }
  return last;
}

const RESPONSE_CHILDREN = graphql(`
  query GenerateResponseResponseChildren($id: ID!) {
    response(id: $id) {
      children {
        id
      }
    }
  }
`);

const MODELS_CONFIGURED = graphql(`
  query GenerateResponseModelsConfigured {
    models {
      configured
      defaultModel
    }
  }
`);

const MODELS_CONFIGURED2 = graphql(`
  query GenerateResponseModelsConfigured2 {
    models {
      configured
      defaultModel
    }
    dialogs(first: 1) {
      edges {
        node {
          id
        }
      }
    }
  }
`);

describe("generateResponse", () => {
  it("returns the response at once and the model's answer arrives over the subscription", async () => {
    g.upstream.script({ output: [{ text: "Hi from the model." }], usage: { input: 3, output: 4 } });
    const { body } = await call(GENERATE, { input: { model: "stand-in-1", input: [{ human: { content: "Hello" } }] } });
    expect(body.data!.generateResponse.__typename).toBe("Response");
    const started = member(body.data!.generateResponse, "Response");
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
    const first = member(
      (await call(GENERATE, { input: { model: "stand-in-1", input: [{ human: { content: "One" } }] } })).body.data!
        .generateResponse,
      "Response",
    );
    await whenFinished(first.id);
    const dialogId = first.dialog.id;
    const second = member(
      (await call(GENERATE, { input: { model: "stand-in-1", dialogId, input: [{ human: { content: "Two" } }] } })).body
        .data!.generateResponse,
      "Response",
    );
    expect(second.previousResponse!.id).toBe(first.id);
    await whenFinished(second.id);

    const regenerated = member(
      (
        await call(GENERATE, {
          input: {
            model: "stand-in-1",
            previousResponseId: first.id,
            input: [{ human: { content: "Two" } }],
          },
        })
      ).body.data!.generateResponse,
      "Response",
    );
    expect(regenerated.previousResponse!.id).toBe(first.id);
    await whenFinished(regenerated.id);
    expect(g.upstream.requests.at(-1)!.body.messages!).toEqual([
      { role: "user", content: "One" },
      { role: "assistant", content: "First answer." },
      { role: "user", content: "Two" },
    ]);
    const { body } = await call(RESPONSE_CHILDREN, { id: first.id });
    expect(body.data!.response!.children.map((child: { id: string }) => child.id).sort()).toEqual(
      [second.id, regenerated.id].sort(),
    );
  });

  it("regenerates a dialog's first turn from its start (fromStart): another first turn of the same dialog", async () => {
    g.upstream.script({ output: [{ text: "Paris." }] }, { output: [{ text: "It is Paris." }] });
    const ask = async (input: Record<string, unknown>) =>
      member(
        (await call(GENERATE, { input: { model: "stand-in-1", ...input } as never })).body.data!.generateResponse,
        "Response",
      );
    const first = await ask({ input: [{ human: { content: "Capital of France?" } }] });
    await whenFinished(first.id);
    const dialogId = first.dialog.id;
    // Before, a first turn could only be asked again in a new dialog: with dialogId alone the
    // regenerated question continued the head, the first answer in its context.
    const again = await ask({ dialogId, fromStart: true, input: [{ human: { content: "Capital of France?" } }] });
    await whenFinished(again.id);
    expect(again.dialog.id).toBe(dialogId);
    expect(again.previousResponse).toBeNull();
    expect(g.upstream.requests.at(-1)!.body.messages!).toEqual([{ role: "user", content: "Capital of France?" }]);
    const roots = await store.prisma.response.findMany({
      where: { dialogId, previousResponseId: null },
      select: { id: true, depth: true },
      orderBy: { id: "asc" },
    });
    expect(roots).toEqual([
      { id: first.id, depth: 0 },
      { id: again.id, depth: 0 },
    ]);
    const dialog = await store.prisma.dialog.findUniqueOrThrow({ where: { id: dialogId } });
    expect(dialog).toMatchObject({ headId: again.id, headDepth: 0 });

    // fromStart begins at the start: with previousResponseId as well, it is refused.
    const refused = (
      await call(GENERATE, {
        input: {
          model: "stand-in-1",
          previousResponseId: first.id,
          fromStart: true,
          input: [{ human: { content: "x" } }],
        },
      })
    ).body.data!.generateResponse;
    expect(member(refused, "ValidationError").message).toMatch(/fromStart/);
  });

  it("tells clients whether a model is configured", async () => {
    const { body } = await call(MODELS_CONFIGURED);
    expect(body.data!.models).toEqual({ configured: true, defaultModel: "gpt-4o-mini" });
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
      expect(body.data!.generateResponse).toMatchObject({
        __typename: "ModelNotConfiguredError",
        code: "MODEL_NOT_CONFIGURED",
      });
      const models = await asCaller(server, key)(MODELS_CONFIGURED2);
      expect(models.body.data).toEqual({ models: { configured: false, defaultModel: null }, dialogs: { edges: [] } });
    } finally {
      await server.close();
    }
  });
});
