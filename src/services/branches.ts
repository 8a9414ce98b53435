// Branches compared: where two responses' chains part (their deepest shared response), and what
// each side holds after that point. Read through the context reads of context.ts, so a comparison
// costs a few statements whatever the depth of the chains, and finding where they part costs the
// same at any depth: two contexts share a prefix of their segment lists, and part in the deepest
// segment they share, at the shallower of the two depths they reach in it.
import type { Store } from "../store/store.js";
import { type ContextEvent, readChain, readContextPage, readSegments, responseAt } from "./context.js";

/** At most this many events per side are read; a side's `eventCount` still counts them all. */
export const MAX_SIDE_EVENTS = 10_000;

export interface ChainLink {
  id: string;
  depth: number;
}

/** The deepest response on both chains, or null when they share none (e.g. different dialogs). */
export async function commonAncestor(store: Store, a: string, b: string): Promise<ChainLink | null> {
  const [segmentsA, segmentsB] = await Promise.all([readSegments(a, store.database), readSegments(b, store.database)]);
  const upToOnB = new Map(segmentsB.map((segment) => [segment.id, segment.upTo]));
  let deepest: { segmentId: string; depth: number } | null = null;
  for (const segment of segmentsA) {
    const onB = upToOnB.get(segment.id);
    if (onB === undefined) continue;
    const depth = Math.min(segment.upTo, onB);
    if (!deepest || depth > deepest.depth) deepest = { segmentId: segment.id, depth };
  }
  return deepest && responseAt(deepest.segmentId, deepest.depth, store.database);
}

export interface BranchSide {
  tipId: string;
  /** The side's responses after the fork, root first. */
  responseIds: string[];
  events: ContextEvent[];
  eventCount: number;
  usage: {
    inputTokens: number;
    outputTokens: number;
    reasoningTokens: number;
    totalTokens: number;
    cachedTokens: number;
    cost: number;
  };
}

export interface BranchComparison {
  ancestor: ChainLink | null;
  a: BranchSide;
  b: BranchSide;
}

export async function compareBranches(store: Store, a: string, b: string): Promise<BranchComparison> {
  const ancestor = await commonAncestor(store, a, b);
  const [sideA, sideB] = await Promise.all([readSide(store, a, ancestor), readSide(store, b, ancestor)]);
  return { ancestor, a: sideA, b: sideB };
}

async function readSide(store: Store, tipId: string, ancestor: ChainLink | null): Promise<BranchSide> {
  const forkDepth = ancestor ? ancestor.depth + 1 : 0;
  const chain = await readChain(tipId, store.database, forkDepth);
  const responseIds = chain.map((link) => link.id);
  const [events, sums] = await Promise.all([
    readContextPage(
      tipId,
      {
        after: ancestor ? { depth: forkDepth, seq: 0 } : null,
        limit: MAX_SIDE_EVENTS,
        inverted: false,
      },
      store.database,
    ),
    store.prisma.response.aggregate({
      where: { id: { in: responseIds } },
      _sum: {
        inputTokens: true,
        outputTokens: true,
        reasoningTokens: true,
        totalTokens: true,
        cachedTokens: true,
        cost: true,
        humanEvents: true,
        aiEvents: true,
        reasoningEvents: true,
        toolCallEvents: true,
        toolResultEvents: true,
        systemEvents: true,
      },
    }),
  ]);
  const s = sums._sum;
  const eventCount =
    (s.humanEvents ?? 0) +
    (s.aiEvents ?? 0) +
    (s.reasoningEvents ?? 0) +
    (s.toolCallEvents ?? 0) +
    (s.toolResultEvents ?? 0) +
    (s.systemEvents ?? 0);
  return {
    tipId,
    responseIds,
    events,
    eventCount,
    usage: {
      inputTokens: s.inputTokens ?? 0,
      outputTokens: s.outputTokens ?? 0,
      reasoningTokens: s.reasoningTokens ?? 0,
      totalTokens: s.totalTokens ?? 0,
      cachedTokens: s.cachedTokens ?? 0,
      cost: s.cost ?? 0,
    },
  };
}

const PREVIEW_LENGTH = 80;

/** The first words of a side: its first message with text (a human's, else any), shortened. */
export function branchPreview(events: readonly Pick<ContextEvent, "type" | "content">[]): string | null {
  const first = events.find((e) => e.type === "HUMAN" && e.content) ?? events.find((e) => e.content);
  const text = first?.content?.replace(/\s+/g, " ").trim();
  if (!text) return null;
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 1)}…` : text;
}
