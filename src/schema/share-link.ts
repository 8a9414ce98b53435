// Read-only share links: createShareLink / revokeShareLink, and Dialog.shareLinks. The shared view
// itself is served by src/rest/shared-dialog.ts at /api/shared/<token>, with no API key.
import { createShareLink, isLive, revokeShareLink } from "../services/share-links.js";
import { builder } from "./builder.js";
import { writeErrors } from "./errors.js";

export const ShareLinkRef = builder.prismaObject("ShareLink", {
  description: "A read-only link to a dialog or one branch of it, opened at /shared/<token> without an API key.",
  fields: (t) => ({
    token: t.exposeString("token", { description: "The secret in the link: whoever has it can read the dialog." }),
    path: t.string({
      description: "Where the viewer shows it: /shared/<token>.",
      resolve: (link) => `/shared/${link.token}`,
    }),
    dialog: t.relation("dialog"),
    responseId: t.exposeID("responseId", {
      nullable: true,
      description: "The branch shared (its last response); null: the dialog's head, as it grows.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", nullable: true }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true }),
    live: t.boolean({ description: "Neither revoked nor expired.", resolve: (link) => isLive(link) }),
  }),
});

builder.prismaObjectField("Dialog", "shareLinks", (t) =>
  t.relation("shareLinks", {
    description: "The dialog's share links that still open (neither revoked nor expired), newest first.",
    query: () => ({
      where: { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
      orderBy: { createdAt: "desc" as const },
    }),
  }),
);

const CreateShareLinkInput = builder.inputType("CreateShareLinkInput", {
  fields: (t) => ({
    dialogId: t.id({ required: true }),
    responseId: t.id({
      description: "Share only the branch ending at this response (default: the dialog's head, live).",
    }),
    expiresAt: t.field({ type: "DateTime", description: "When the link stops opening (default: never)." }),
  }),
});

builder.mutationFields((t) => ({
  createShareLink: t.prismaField({
    type: ShareLinkRef,
    errors: { types: writeErrors },
    description: "A new read-only link to the dialog (or one branch of it).",
    args: { input: t.arg({ type: CreateShareLinkInput, required: true }) },
    tenant: { dialogs: ["input.dialogId"], responses: ["input.responseId"] },
    resolve: (_query, _root, { input }, { store, scope }) =>
      createShareLink(store, scope.tenantId, {
        dialogId: String(input.dialogId),
        responseId: input.responseId == null ? null : String(input.responseId),
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      }),
  }),
  revokeShareLink: t.prismaField({
    type: ShareLinkRef,
    errors: { types: writeErrors },
    description: "The link stops opening at once; a shared page open with it stops following the dialog.",
    args: { token: t.arg.string({ required: true }) },
    // Looked up among the caller's own links only.
    tenant: "caller",
    resolve: (_query, _root, { token }, { store, scope }) => revokeShareLink(store, scope.tenantId, token),
  }),
}));
