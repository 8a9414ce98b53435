// Opening a long dialog in the viewer: a chain of 1,000 turns of 10 events each (a question,
// reasoning, four tool calls and their results, the answer; smoke: 100 turns), written through the
// API, then opened at /dialogs/<id> in headless Chromium (Debian's, driven by playwright-core).
// Measured in the page: from navigation start to the last event drawn, the JS heap then, the events
// and DOM nodes drawn, and how long "Show earlier" takes to draw the next events.
import { chromium } from "playwright-core";
import { graphql, startInProcessServer } from "../lib/server.js";
import { emit, smoke } from "../lib/report.js";

const TURNS = smoke ? 100 : 1_000;
const EVENTS_PER_TURN = 10;
const EVENTS = TURNS * EVENTS_PER_TURN;

const server = await startInProcessServer();
const base = server.url.replace(/\/graphql$/, "");

const WRITE = `mutation ($input: CreateResponseInput!) {
  createResponse(input: $input) { __typename ... on Response { id dialog { id } } ... on Error { message } }
}`;
const turn = (n: number) => ({
  model: "bench-model",
  input: [{ human: { content: `Question ${n}: what does **step ${n}** of the plan need?` } }],
  output: [
    { reasoning: { content: `Step ${n} needs the files and the tests.` } },
    ...[1, 2, 3, 4].flatMap((k) => [
      { toolCall: { callId: `call_${n}_${k}`, toolName: "read_file", args: { path: `src/step${n}/${k}.ts` } } },
      {
        toolResult: { callId: `call_${n}_${k}`, toolName: "read_file", content: `export const step${n}_${k} = ${k};` },
      },
    ]),
    {
      ai: {
        content: `Step ${n} needs:\n\n| file | lines |\n|---|---|\n| src/step${n}/1.ts | 12 |\n\n\`\`\`ts\nrun(${n});\n\`\`\``,
      },
    },
  ],
});

let dialogId = "";
let previousResponseId: string | undefined;
const written = performance.now();
for (let n = 1; n <= TURNS; n++) {
  const { createResponse } = await graphql(server.url, WRITE, { input: { ...turn(n), previousResponseId } });
  if (createResponse.__typename !== "Response") throw new Error(createResponse.message);
  previousResponseId = createResponse.id;
  dialogId = createResponse.dialog.id;
}
const writeSeconds = (performance.now() - written) / 1000;
// The last event's seq (a turn's start and end take seqs of their own besides its events).
const { dialog } = await graphql(
  server.url,
  `
    query ($id: ID!) {
      dialog(id: $id) {
        lastSeq
      }
    }
  `,
  { id: dialogId },
);
const lastSeq: number = dialog.lastSeq;

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const cdp = await page.context().newCDPSession(page);
await cdp.send("Performance.enable");

// The viewer's code and styles once, as a returning reader has them cached.
await page.goto(`${base}/`);
await page.locator("[data-testid=new-chat-button]").waitFor({ timeout: 60_000 });

const requests = new Map<string, number>();
page.on("request", (request) => {
  if (new URL(request.url()).pathname !== "/graphql") return;
  const name = /(?:query|mutation|subscription)\s+(\w+)/.exec(request.postData() ?? request.url())?.[1] ?? "other";
  requests.set(name, (requests.get(name) ?? 0) + 1);
});
await page.goto(`${base}/dialogs/${dialogId}`);
const firstDrawnMs = await page
  .waitForFunction(() => document.querySelector("[data-testid=event]") && performance.now(), undefined, {
    timeout: 120_000,
    polling: "raf",
  })
  .then((handle) => handle.jsonValue() as Promise<number>);
const lastDrawnMs = await page
  .waitForFunction(
    (seq) => document.querySelector(`[data-testid=event][data-seq="${seq}"]`) && performance.now(),
    lastSeq,
    {
      timeout: 120_000,
      polling: "raf",
    },
  )
  .catch(async (error) => {
    const seqs = await page.$$eval("[data-testid=event]", (events) =>
      events.map((event) => Number((event as HTMLElement).dataset.seq)),
    );
    throw new Error(`${error}; drawn: ${seqs.length} events, seq ${Math.min(...seqs)}…${Math.max(...seqs)}`);
  })
  .then((handle) => handle.jsonValue() as Promise<number>);
const { metrics } = await cdp.send("Performance.getMetrics");
const heapMb = (metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? 0) / 2 ** 20;
const drawn = await page.locator("[data-testid=event]").count();
const domNodes = await page.evaluate(() => document.getElementsByTagName("*").length);
const requestsToOpen = [...requests].map(([name, n]) => `${name} ×${n}`).join(", ");

const earlier = await page.evaluate(async () => {
  const before = document.querySelectorAll("[data-testid=event]").length;
  const started = performance.now();
  document.querySelector<HTMLButtonElement>("[data-testid=show-earlier]")?.click();
  for (;;) {
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const now = document.querySelectorAll("[data-testid=event]").length;
    if (now > before) return { ms: performance.now() - started, added: now - before };
    if (performance.now() - started > 30_000) return { ms: NaN, added: 0 };
  }
});

await browser.close();
await server.close();

const scenario = `viewer, a ${EVENTS.toLocaleString("en")}-event dialog`;
emit([
  {
    scenario,
    metric: "navigation → last event drawn",
    value: Math.round(lastDrawnMs),
    unit: "ms",
    target: "< 1000 ms",
    met: lastDrawnMs < 1_000,
  },
  {
    scenario,
    metric: "navigation → first event drawn",
    value: Math.round(firstDrawnMs),
    unit: "ms",
    note: `GraphQL requests to open: ${requestsToOpen}`,
  },
  { scenario, metric: "JS heap used, opened", value: Math.round(heapMb), unit: "MB" },
  { scenario, metric: "events drawn (of all)", value: drawn, unit: "events", note: `DOM nodes ${domNodes}` },
  {
    scenario,
    metric: `"Show earlier" → ${earlier.added} more drawn`,
    value: Math.round(earlier.ms),
    unit: "ms",
  },
  { scenario, metric: "writing the turns through the API", value: Math.round(writeSeconds), unit: "s" },
]);
