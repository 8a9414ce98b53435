// Search: events of the caller's dialogs found by words in their text, tool names and arguments,
// best first, with a highlighted snippet and where each hit sits (dialog, response, seq).
import { resolveOffsetConnection } from "@pothos/plugin-relay";
import DataLoader from "dataloader";
import type { Dialog as DialogRow } from "../generated/prisma/client.js";
import type { Context } from "./context.js";
import {
  COUNT_CAP,
  countSearchHits,
  type SearchFilter as SearchFilterShape,
  type SearchHit as SearchHitRow,
  searchEvents,
  snippetHtml,
  snippetParts,
} from "../services/search.js";
import { builder } from "./builder.js";
import { INPUT_LIMITS, inputLimit } from "./input-limits.js";
import { Dialog } from "./dialog.js";
import { HistoryEvent, HistoryEventTypeEnum } from "./history-event.js";
import { Response, ResponseStatusEnum } from "./response.js";

export const DEFAULT_SEARCH_PAGE = 20;
export const MAX_SEARCH_PAGE = 100;

export const SearchFilter = builder.inputType("SearchFilter", {
  description: "Narrows a search or a dialog list. Every given field must hold.",
  fields: (t) => ({
    types: t.field({
      type: [HistoryEventTypeEnum],
      description: "Events of these types (dialogs: having such an event).",
    }),
    models: t.stringList({ description: "Written by a response of one of these models." }),
    statuses: t.field({
      type: [ResponseStatusEnum],
      description: "Search: the event's response has one of these statuses. Dialogs: the head has.",
    }),
    metadata: t.field({
      type: "JSONObject",
      description: "The dialog's metadata has these top-level keys with these values.",
      ...inputLimit(INPUT_LIMITS.metadata),
    }),
    createdAfter: t.field({
      type: "DateTime",
      description: "Created at or after (search: the event; dialogs: the dialog).",
    }),
    createdBefore: t.field({ type: "DateTime", description: "Created before." }),
    dialogId: t.id({ description: "Only in this dialog." }),
  }),
});

/** The GraphQL input as the services take it. */
export function searchFilterOf(input: typeof SearchFilter.$inferInput | null | undefined): SearchFilterShape | null {
  if (!input) return null;
  return { ...input, dialogId: input.dialogId == null ? null : String(input.dialogId) };
}

const SnippetPart = builder.objectRef<{ text: string; match: boolean }>("SnippetPart").implement({
  fields: (t) => ({
    text: t.exposeString("text"),
    match: t.exposeBoolean("match", { description: "True for a word that matched the query." }),
  }),
});

// Dialogs of a page of hits, read together.
const dialogLoaders = new WeakMap<Context, DataLoader<string, DialogRow>>();
const dialogLoader = (ctx: Context) => {
  let loader = dialogLoaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids) => {
      const rows = await ctx.store.prisma.dialog.findMany({ where: { id: { in: [...ids] } } });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? new Error(`Dialog ${id} not found`));
    });
    dialogLoaders.set(ctx, loader);
  }
  return loader;
};

const SearchHit = builder.objectRef<SearchHitRow>("SearchHit").implement({
  description: "One event that matched, and where it is.",
  fields: (t) => ({
    event: t.field({ type: HistoryEvent, resolve: (hit) => hit }),
    dialogId: t.id({ resolve: (hit) => hit.dialogId }),
    responseId: t.id({ resolve: (hit) => hit.responseId }),
    seq: t.exposeInt("seq"),
    dialog: t.field({ type: Dialog, resolve: (hit, _args, ctx) => dialogLoader(ctx).load(hit.dialogId) }),
    response: t.field({ type: Response, resolve: (hit, _args, ctx) => ctx.loaders.response.load(hit.responseId) }),
    rank: t.float({ description: "Relevance (ts_rank): higher is better.", resolve: (hit) => Number(hit.rank) }),
    snippet: t.string({
      description: "The matching passage as HTML: the text escaped, the matched words in <mark>.",
      resolve: (hit) => snippetHtml(hit.headline),
    }),
    snippetParts: t.field({
      type: [SnippetPart],
      description: "The matching passage as plain text parts, the matched words flagged.",
      resolve: (hit) => snippetParts(hit.headline),
    }),
  }),
});

interface SearchPage {
  totalCount: () => Promise<number>;
}

const SearchConnection = builder.connectionObject(
  {
    type: SearchHit,
    name: "SearchConnection",
    fields: (t) => ({
      totalCount: t.int({
        description: `How many events match in all, counted up to ${COUNT_CAP}: ${COUNT_CAP} means at least that many.`,
        resolve: (page) => (page as unknown as SearchPage).totalCount(),
      }),
    }),
  },
  { name: "SearchEdge" },
);

builder.queryField("search", (t) =>
  t.field({
    type: SearchConnection,
    description:
      'Events of the caller\'s dialogs matching `query` (web-search syntax: words, "a phrase", -not, or) in their text, tool name or arguments; best first.',
    args: {
      query: t.arg.string({ required: true, ...inputLimit(INPUT_LIMITS.searchQuery) }),
      filter: t.arg({ type: SearchFilter }),
      ...t.arg.connectionArgs(),
    },
    // Matches only the caller's dialogs.
    tenant: "caller",
    resolve: async (_root, { query, filter, ...args }, { scope, store }) => {
      const shape = searchFilterOf(filter);
      const page = await resolveOffsetConnection(
        { args, defaultSize: DEFAULT_SEARCH_PAGE, maxSize: MAX_SEARCH_PAGE },
        ({ offset, limit }) => searchEvents(store.database, query, scope.tenantId, shape, { offset, limit }),
      );
      let total: Promise<number> | undefined;
      return {
        ...page,
        totalCount: () => (total ??= countSearchHits(store.database, query, scope.tenantId, shape)),
      };
    },
  }),
);
