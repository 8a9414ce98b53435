// A title for an untitled dialog, made from its first exchange: the model writes one when a model
// is configured (a few words, asked without streaming, through the generator's door: held to the
// caller's budget and charged like any model call), else the first words of the first human
// message. A dialog that has a title keeps it: naming is the person's call once they have made it.
import type { Generator } from "./generate-turn.js";
import { NotFoundError } from "../errors.js";
import type { Store } from "../store/store.js";
import { readContext } from "../services/context.js";

const MAX_TITLE_WORDS = 8;
const MAX_TITLE_CHARS = 80;

export interface TitleOptions {
  generator: Generator;
  /** Whose spend the model's title is. */
  caller: { tenantId: string; keyId: string | null };
  /** The model to ask (the one the dialog talks to); the catalog's default otherwise. */
  model?: string | null;
  /** Stores the title (the app's one door for dialog changes). */
  setTitle: (title: string) => Promise<unknown>;
}

export async function titleDialog(store: Store, dialogId: string, options: TitleOptions) {
  const dialog = await store.prisma.dialog.findUnique({ where: { id: dialogId }, select: { title: true } });
  if (!dialog) throw NotFoundError.dialog(dialogId);
  if (dialog.title) return { id: dialogId };
  const first = await store.prisma.response.findFirst({
    where: { dialogId, previousResponseId: null },
    orderBy: { createdAt: "asc" },
    select: { id: true, model: true },
  });
  if (!first) return { id: dialogId };
  const events = await readContext(first.id, ["HUMAN", "AI"], store.database);
  const question = events.find((event) => event.type === "HUMAN")?.content?.trim();
  if (!question) return { id: dialogId };
  const answer = events.find((event) => event.type === "AI")?.content?.trim() ?? "";
  const { models } = options.generator;
  const model = options.model ?? first.model ?? models.defaultModel;
  const title =
    (models.configured && model && (await askForTitle(options, dialogId, model, question, answer))) ||
    firstWords(question);
  await options.setTitle(title);
  return { id: dialogId };
}

/**
 * The model's title, or null when it fails, the caller is over its budget, or the model says
 * nothing usable (the first words stand in).
 */
async function askForTitle(options: TitleOptions, dialogId: string, model: string, question: string, answer: string) {
  try {
    const text = await options.generator.askOnce({
      model,
      caller: options.caller,
      dialogId,
      maxOutputTokens: 24,
      system:
        "Write a title of at most eight words for this conversation. Answer with the title only: no quotes, no final period.",
      prompt: `User: ${question.slice(0, 2_000)}\n\nAssistant: ${answer.slice(0, 2_000)}`,
    });
    return cleanTitle(text);
  } catch {
    return null;
  }
}

const MARKS = /^[\s*_`"'“‘]+|[\s*_`"'”’.]+$/g;

/**
 * A model's answer as a title: its first line, without what models put around one (a heading's
 * `#`, `**bold**`, a "Title:" label, quotes, a final period); null when nothing is left.
 */
export function cleanTitle(text: string): string | null {
  const line = text.split("\n").find((l) => l.trim()) ?? "";
  const title = line
    .replace(/^\s*#+\s*/, "")
    .replace(MARKS, "")
    .replace(/^title\s*:[\s*_]*/i, "")
    .replace(MARKS, "");
  return title ? title.slice(0, MAX_TITLE_CHARS) : null;
}

export function firstWords(text: string): string {
  const words = text.replace(/\s+/g, " ").trim().split(" ").slice(0, MAX_TITLE_WORDS).join(" ");
  return words.length > MAX_TITLE_CHARS ? `${words.slice(0, MAX_TITLE_CHARS - 1)}…` : words;
}
