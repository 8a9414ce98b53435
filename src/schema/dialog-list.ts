// The caller's dialogs as a list: filtered, ordered, counted, and each with a line to show for it.
import { dialogOrderBy, dialogWhere } from "../services/dialog-filter.js";
import { COUNT_CAP } from "../services/search.js";
import { builder } from "./builder.js";
import "./dialog.js";
import { SearchFilter, searchFilterOf } from "./search.js";

const PREVIEW_LENGTH = 120;

const DialogOrderEnum = builder.enumType("DialogOrder", {
  values: {
    NEWEST: { description: "Newest first (the default)." },
    OLDEST: { description: "Oldest first." },
    RECENTLY_UPDATED: { description: "Last written to first." },
  } as const,
});

builder.prismaObjectField("Dialog", "preview", (t) =>
  t.string({
    nullable: true,
    description: `The start of the dialog's first human message (at most ${PREVIEW_LENGTH} characters), to show for an untitled dialog.`,
    select: {
      events: { where: { type: "HUMAN" }, orderBy: { seq: "asc" }, take: 1, select: { content: true } },
    },
    resolve: (dialog) => {
      const text = dialog.events[0]?.content?.replace(/\s+/g, " ").trim();
      if (!text) return null;
      return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 1)}…` : text;
    },
  }),
);

builder.queryField("dialogs", (t) =>
  t.prismaConnection(
    {
      type: "Dialog",
      cursor: "id",
      description: "The caller's dialogs, newest first unless `orderBy` says otherwise, narrowed by `filter`.",
      args: {
        filter: t.arg({ type: SearchFilter }),
        orderBy: t.arg({ type: DialogOrderEnum }),
      },
      // Lists only the caller's dialogs.
      tenant: "caller",
      resolve: (query, _root, { filter, orderBy }, { scope, store }) =>
        store.prisma.dialog.findMany({
          ...query,
          where: dialogWhere(scope.tenantId, searchFilterOf(filter)),
          orderBy: dialogOrderBy(orderBy),
        }),
      totalCount: (_root, { filter }, { scope, store }) =>
        // Bounded like search's (COUNT_CAP): Prisma counts a LIMITed subselect.
        store.prisma.dialog.count({ where: dialogWhere(scope.tenantId, searchFilterOf(filter)), take: COUNT_CAP }),
    },
    { name: "DialogConnection" },
    { name: "DialogEdge" },
  ),
);
