// Branches as first-class: the response where two branches part, and a comparison of what each
// branch holds after that point ("what did the model do differently from here?").
import { ValidationError } from "../errors.js";
import {
  type BranchSide as BranchSideShape,
  branchPreview,
  commonAncestor,
  compareBranches,
} from "../services/branches.js";
import { builder } from "./builder.js";
import { HistoryConnection, historyArgs, resolveHistory } from "./history-connection.js";
import { HistoryEvent } from "./history-event.js";
import { Response, Usage } from "./response.js";

builder.prismaObjectField("Response", "preview", (t) =>
  t.string({
    nullable: true,
    description: "The first words of the response's first human input: what a branch starting here is about.",
    select: {
      events: { where: { phase: "INPUT", type: "HUMAN" }, orderBy: { seq: "asc" }, take: 1, select: { content: true } },
    },
    resolve: (response) => branchPreview(response.events.map((e) => ({ type: "HUMAN" as const, content: e.content }))),
  }),
);

builder.prismaObjectField("Response", "commonAncestor", (t) =>
  t.field({
    type: Response,
    nullable: true,
    description:
      "The deepest response on both this response's chain and `with`'s: where their branches part (itself when one continues the other; null when they share none).",
    args: { with: t.arg.id({ required: true }) },
    resolve: async (response, args, { scope, loaders, store }) => {
      await scope.response(String(args.with));
      const ancestor = await commonAncestor(store, response.id, String(args.with));
      return ancestor ? loaders.response.load(ancestor.id) : null;
    },
  }),
);

const BranchSide = builder.objectRef<BranchSideShape>("BranchSide").implement({
  description: "One side of a comparison: what its branch holds after the fork.",
  fields: (t) => ({
    tip: t.field({ type: Response, resolve: (side, _args, { loaders }) => loaders.response.load(side.tipId) }),
    responses: t.field({
      type: [Response],
      description: "The branch's responses after the fork, in order.",
      resolve: (side, _args, { loaders }) => loaders.response.loadMany(side.responseIds) as never,
    }),
    events: t.field({
      type: [HistoryEvent],
      description: "The branch's events after the fork, in order (the first 10,000).",
      resolve: (side) => side.events,
    }),
    preview: t.string({
      nullable: true,
      description: "The first words of the branch after the fork: its first message's text, shortened.",
      resolve: (side) => branchPreview(side.events),
    }),
    eventCount: t.exposeInt("eventCount", { description: "How many events the branch holds after the fork." }),
    usage: t.field({
      type: Usage,
      description: "Token usage summed over the branch's responses after the fork.",
      resolve: (side) => side.usage,
    }),
  }),
});

interface ComparisonShape {
  ancestorId: string | null;
  a: BranchSideShape;
  b: BranchSideShape;
}

const BranchComparison = builder.objectRef<ComparisonShape>("BranchComparison").implement({
  fields: (t) => ({
    commonAncestor: t.field({
      type: Response,
      nullable: true,
      description: "Where the branches part; null when they share nothing.",
      resolve: (c, _args, { loaders }) => (c.ancestorId ? loaders.response.load(c.ancestorId) : null),
    }),
    shared: t.field({
      type: HistoryConnection,
      description: "The shared prefix: the common ancestor's context.",
      args: historyArgs,
      resolve: (c, args, ctx, info) => resolveHistory(ctx, c.ancestorId, args, info),
    }),
    a: t.field({ type: BranchSide, resolve: (c) => c.a }),
    b: t.field({ type: BranchSide, resolve: (c) => c.b }),
  }),
});

builder.queryField("compareBranches", (t) =>
  t.field({
    type: BranchComparison,
    description:
      "Two responses' branches side by side: the shared prefix, then each side's events after the fork with its usage.",
    args: { a: t.arg.id({ required: true }), b: t.arg.id({ required: true }) },
    tenant: { responses: ["a", "b"] },
    resolve: async (_root, { a, b }, { scope, store }) => {
      // Both were checked (and cached) before this runs; their dialogs are compared here.
      const [ownerA, ownerB] = await Promise.all([scope.response(String(a)), scope.response(String(b))]);
      if (ownerA.dialogId !== ownerB.dialogId) throw ValidationError.at(["b"], "is in another dialog than a");
      const comparison = await compareBranches(store, String(a), String(b));
      return { ancestorId: comparison.ancestor?.id ?? null, a: comparison.a, b: comparison.b };
    },
  }),
);
