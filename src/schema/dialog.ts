// Dialog: the conversation. Its queries and the mutations that return it.
import { prisma } from "../db/prisma.js";
import { NotFoundError } from "../errors.js";
import { createDialog, deleteDialog, updateDialog } from "../services/dialogs.js";
import { builder } from "./builder.js";
import { writeErrors } from "./errors.js";
import { HistoryConnection, historyArgs, resolveHistory } from "./history-connection.js";

export const Dialog = builder.prismaObject("Dialog", {
  fields: (t) => ({
    id: t.exposeID("id"),
    title: t.exposeString("title", { nullable: true }),
    metadata: t.expose("metadata", { type: "JSONObject" }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    lastSeq: t.exposeInt("lastSeq", { description: "Seq of the newest event in the dialog (0 when empty)." }),
    head: t.relation("head", {
      nullable: true,
      description: "The response new turns continue from by default: the newest one created in the dialog.",
    }),
    forkedFrom: t.relation("forkedFrom", { nullable: true }),
    responses: t.relatedConnection(
      "responses",
      {
        cursor: "id",
        description: "Every response of the dialog, in creation order, whichever branch it is on.",
        query: { orderBy: { id: "asc" } },
      },
      { name: "ResponseConnection" },
      { name: "ResponseEdge" },
    ),
    branches: t.prismaField({
      type: ["Response"],
      description: "Leaf responses: the ends of the dialog's branches, oldest first.",
      resolve: (query, dialog) =>
        prisma.response.findMany({
          ...query,
          where: { dialogId: dialog.id, children: { none: {} } },
          orderBy: { id: "asc" },
        }),
    }),
    history: t.field({
      type: HistoryConnection,
      description: "The context of `responseId` (default: the head), root first, Relay-paginated.",
      args: { responseId: t.arg.id(), ...historyArgs },
      select: { headId: true },
      resolve: async (dialog, { responseId, ...args }) => {
        if (responseId) await assertResponseInDialog(String(responseId), dialog.id);
        return resolveHistory(responseId ? String(responseId) : dialog.headId, args);
      },
    }),
  }),
});

async function assertResponseInDialog(responseId: string, dialogId: string) {
  const response = await prisma.response.findUnique({ where: { id: responseId }, select: { dialogId: true } });
  if (response?.dialogId !== dialogId) throw NotFoundError.response(responseId);
}

builder.queryFields((t) => ({
  dialog: t.prismaField({
    type: "Dialog",
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }) => {
      const dialog = await prisma.dialog.findUnique({ ...query, where: { id: String(id) } });
      if (!dialog) throw NotFoundError.dialog(String(id));
      return dialog;
    },
  }),
  dialogs: t.prismaConnection(
    {
      type: "Dialog",
      cursor: "id",
      description: "All dialogs, newest first.",
      // ULIDs sort by creation time, so the primary key is also the age order.
      resolve: (query) => prisma.dialog.findMany({ ...query, orderBy: { id: "desc" } }),
    },
    { name: "DialogConnection" },
    { name: "DialogEdge" },
  ),
}));

const CreateDialogInput = builder.inputType("CreateDialogInput", {
  fields: (t) => ({
    title: t.string(),
    metadata: t.field({ type: "JSON", description: "A JSON object." }),
  }),
});

const UpdateDialogInput = builder.inputType("UpdateDialogInput", {
  fields: (t) => ({
    id: t.id({ required: true }),
    title: t.string({ description: "A new title; null clears it, absent leaves it." }),
    metadata: t.field({ type: "JSON", description: "Replaces the metadata object." }),
  }),
});

const DeleteDialogInput = builder.inputType("DeleteDialogInput", {
  fields: (t) => ({ id: t.id({ required: true }) }),
});

const DeleteDialogPayload = builder.objectRef<{ id: string }>("DeleteDialogPayload").implement({
  fields: (t) => ({ id: t.exposeID("id", { description: "Id of the deleted dialog." }) }),
});

builder.mutationFields((t) => ({
  createDialog: t.prismaField({
    type: "Dialog",
    errors: { types: writeErrors },
    args: { input: t.arg({ type: CreateDialogInput, required: true }) },
    resolve: async (query, _root, { input }) => {
      const { id } = await createDialog(input);
      return prisma.dialog.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updateDialog: t.prismaField({
    type: "Dialog",
    errors: { types: writeErrors },
    args: { input: t.arg({ type: UpdateDialogInput, required: true }) },
    resolve: async (query, _root, { input: { id, ...fields } }) => {
      await updateDialog(String(id), fields);
      return prisma.dialog.findUniqueOrThrow({ ...query, where: { id: String(id) } });
    },
  }),
  deleteDialog: t.field({
    type: DeleteDialogPayload,
    errors: { types: writeErrors },
    args: { input: t.arg({ type: DeleteDialogInput, required: true }) },
    resolve: (_root, { input }) => deleteDialog(String(input.id)),
  }),
}));
