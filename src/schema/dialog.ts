// Dialog: the conversation. Its own fields, its queries and the mutations that return it (the
// fields that read its context: dialog-context.ts).
import { NotFoundError } from "../errors.js";
import { expiresAt } from "../services/retention.js";
import { builder } from "./builder.js";
import { INPUT_LIMITS, inputLimit } from "./input-limits.js";
import { dialogRow, needsOwnColumnsOnly } from "./own-columns.js";
import { answerWithDialog, committedWrite } from "./committed-write.js";
import { writeErrors } from "./errors.js";

export const Dialog = builder.prismaObject("Dialog", {
  fields: (t) => ({
    id: t.exposeID("id"),
    title: t.exposeString("title", { nullable: true }),
    metadata: t.expose("metadata", { type: "JSONObject" }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When the dialog was last written to." }),
    expiresAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When retention deletes the dialog unless it is written to before (null: kept forever).",
      select: { updatedAt: true },
      resolve: (dialog, _args, ctx) => expiresAt(dialog.updatedAt, ctx.store.retentionMs),
    }),
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
      resolve: (query, dialog, _args, ctx) =>
        ctx.store.prisma.response.findMany({
          ...query,
          where: { dialogId: dialog.id, children: { none: {} } },
          orderBy: { id: "asc" },
        }),
    }),
  }),
});

builder.queryFields((t) => ({
  dialog: t.prismaField({
    type: "Dialog",
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    // One statement filtered by the tenant: another tenant's dialog is not found.
    tenant: "caller",
    resolve: async (query, _root, { id }, { scope, store }) => {
      const dialog = needsOwnColumnsOnly(query)
        ? await dialogRow(store, String(id), scope.tenantId)
        : await store.prisma.dialog.findUnique({ ...query, where: { id: String(id), tenantId: scope.tenantId } });
      if (!dialog) throw NotFoundError.dialog(String(id));
      return dialog;
    },
  }),
}));

const CreateDialogInput = builder.inputType("CreateDialogInput", {
  fields: (t) => ({
    title: t.string(inputLimit(INPUT_LIMITS.title)),
    metadata: t.field({ type: "JSON", description: "A JSON object.", ...inputLimit(INPUT_LIMITS.metadata) }),
  }),
});

const UpdateDialogInput = builder.inputType("UpdateDialogInput", {
  fields: (t) => ({
    id: t.id({ required: true }),
    title: t.string({
      description: "A new title; null clears it, absent leaves it.",
      ...inputLimit(INPUT_LIMITS.title),
    }),
    metadata: t.field({
      type: "JSON",
      description: "Replaces the metadata object.",
      ...inputLimit(INPUT_LIMITS.metadata),
    }),
  }),
});

const DeleteDialogInput = builder.inputType("DeleteDialogInput", {
  fields: (t) => ({ id: t.id({ required: true }) }),
});

const ClearDialogInput = builder.inputType("ClearDialogInput", {
  fields: (t) => ({ id: t.id({ required: true }) }),
});

const ForkDialogInput = builder.inputType("ForkDialogInput", {
  fields: (t) => ({
    responseId: t.id({ required: true, description: "The new dialog's history is this response's context." }),
    title: t.string({ description: "Default: the original dialog's title.", ...inputLimit(INPUT_LIMITS.title) }),
  }),
});

const DeleteDialogPayload = builder.objectRef<{ id: string }>("DeleteDialogPayload").implement({
  fields: (t) => ({ id: t.exposeID("id", { description: "Id of the deleted dialog." }) }),
});

builder.mutationFields((t) => ({
  createDialog: t.prismaField({
    type: "Dialog",
    errors: { types: writeErrors },
    args: { input: t.arg({ type: CreateDialogInput, required: true }) },
    // The new dialog is the caller's tenant's.
    tenant: "caller",
    resolve: async (query, _root, { input }, { scope, store, writes }) => {
      const { id } = await writes.createDialog(input, scope.tenantId);
      return store.prisma.dialog.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updateDialog: t.prismaField({
    type: "Dialog",
    errors: { types: writeErrors },
    args: { input: t.arg({ type: UpdateDialogInput, required: true }) },
    tenant: { dialogs: ["input.id"] },
    resolve: async (query, _root, { input: { id, ...fields } }, { store, writes }) => {
      await writes.updateDialog(String(id), fields);
      return store.prisma.dialog.findUniqueOrThrow({ ...query, where: { id: String(id) } });
    },
  }),
  clearDialog: t.prismaField({
    type: "Dialog",
    errors: { types: writeErrors },
    description:
      "Delete every response and event of the dialog, keep the dialog. `lastSeq` keeps its value, so seqs are never reused.",
    args: { input: t.arg({ type: ClearDialogInput, required: true }) },
    tenant: { dialogs: ["input.id"] },
    resolve: async (query, _root, { input }, ctx) => {
      const dialogId = String(input.id);
      return answerWithDialog(ctx, await committedWrite(ctx, () => ctx.writes.clearDialog(dialogId)), query);
    },
  }),
  forkDialog: t.prismaField({
    type: "Dialog",
    errors: { types: writeErrors },
    description:
      "Branch into a new dialog: its history is a copy of the context of `responseId` (new ids, seqs 1..n), with `forkedFrom` set. The original is untouched.",
    args: { input: t.arg({ type: ForkDialogInput, required: true }) },
    tenant: { chainedTo: ["input.responseId"] },
    resolve: async (query, _root, { input }, ctx) => {
      const responseId = String(input.responseId);
      const fork = () => ctx.writes.forkDialog({ responseId, title: input.title });
      return answerWithDialog(ctx, await committedWrite(ctx, fork), query);
    },
  }),
  deleteDialog: t.field({
    type: DeleteDialogPayload,
    errors: { types: writeErrors },
    args: { input: t.arg({ type: DeleteDialogInput, required: true }) },
    tenant: { dialogs: ["input.id"] },
    resolve: async (_root, { input }, ctx) => {
      const dialogId = String(input.id);
      return committedWrite(ctx, () => ctx.writes.deleteDialog(dialogId));
    },
  }),
}));
