// A dialogql server whose models are the upstream stand-in (a real HTTP server speaking OpenAI's
// wire format), with a tenant's API key and the real `openai` SDK pointed at its /v1.
import OpenAI from "openai";
import { atEveryFileEnd } from "./file-scope.js";
import { createModelCatalog, type ProviderSettings } from "../../src/generation/providers.js";
import { type RunningServer, type ServerOptions, startServer } from "../../src/server/http-server.js";
import { store, testConfig } from "./database.js";
import { tenantKey } from "./tenants.js";
import { startUpstreamStandIn, type UpstreamStandIn } from "./upstream-stand-in.js";

const cleanups: (() => Promise<void>)[] = [];
atEveryFileEnd(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export interface GeneratingServer {
  server: RunningServer;
  upstream: UpstreamStandIn;
  /** The `openai` SDK as tenant `tenantId`'s client (no retries: each request is one turn). */
  openai: OpenAI;
  key: string;
  clientFor(key: string): OpenAI;
}

export async function startGeneratingServer(
  settings: Partial<ProviderSettings> = {},
  tenantId = "tenant-a",
  serverOptions: Partial<ServerOptions> = {},
): Promise<GeneratingServer> {
  const upstream = await startUpstreamStandIn();
  const models = createModelCatalog({
    OPENAI_BASE_URL: upstream.url,
    OPENAI_API_KEY: "sk-stand-in",
    UPSTREAM_API: "chat",
    UPSTREAM_MAX_RETRIES: 0,
    // With an Anthropic key, claude-* models go to the same stand-in, speaking Anthropic's Messages.
    ...(settings.ANTHROPIC_API_KEY && { ANTHROPIC_BASE_URL: upstream.url }),
    ...settings,
  });
  const server = await startServer({
    store,
    config: testConfig,
    port: 0,
    redisUrl: process.env.TEST_REDIS_URL ?? null,
    models,
    ...serverOptions,
  });
  cleanups.push(
    () => server.close(),
    () => upstream.close(),
  );
  const { key } = await tenantKey(tenantId);
  const clientFor = (apiKey: string) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey, maxRetries: 0 });
  return { server, upstream, openai: clientFor(key), key, clientFor };
}

/**
 * A second instance beside `g`, on the same database and Redis, with no upstream of its own: what
 * it serves of `g`'s turns (a resume, a cancel) goes through the live bus. Its client holds `g`'s key.
 */
export async function startOtherInstance(g: GeneratingServer) {
  const server = await startServer({
    store,
    config: testConfig,
    port: 0,
    redisUrl: process.env.TEST_REDIS_URL!,
    models: createModelCatalog({ UPSTREAM_API: "chat", UPSTREAM_MAX_RETRIES: 0 }),
  });
  cleanups.push(() => server.close());
  return { server, openai: g.clientFor(g.key).withOptions({ baseURL: `${server.url}/v1` }) };
}
