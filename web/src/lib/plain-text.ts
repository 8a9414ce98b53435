// Markdown read as the words it shows, for one-line places (search hits, untitled dialogs' names):
// no `**`, backticks, fences, heading marks, list bullets, link targets or table pipes, and one
// space for any run of white space. In-word underscores (snake_case) are text, as Markdown keeps them.

export interface TextPart {
  text: string;
  match: boolean;
}

// Around a highlighted part while the whole snippet is cleaned at once, so that a construct
// split by a highlight (`**word**`, `[word](url)`) is recognised; never typed by anyone.
const MATCH_START = "\uE000";
const MATCH_END = "\uE001";

const MARKDOWN: [RegExp, string][] = [
  [/(^|\n)[ \t]*(```|~~~)[^\n]*/g, "$1"], // code fence lines, with their language
  // Links and images: their text. A snippet can cut one short (no closing parenthesis) or begin
  // inside one (no opening bracket).
  [/!?\[([^\]\n]*)\]\([^)\s]*\)?/g, "$1"],
  [/\]\([^)\s]*\)?/g, ""],
  [/(^|\n)[ \t]{0,3}#{1,6}[ \t]+/g, "$1"], // heading marks
  [/(^|\n)[ \t]*>[ \t]?/g, "$1"], // block quotes
  [/(^|\n)[ \t]*[-*+][ \t]+/g, "$1"], // list bullets
  [/(^|\n)[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*(?=\n|$)/g, "$1"], // table rules
  [/[ \t]*\|[ \t]*/g, " "], // table cells
  [/`+/g, ""], // inline code
  [/~~/g, ""], // strike-through
  [/(?<![\w*])(\*{1,3}|_{1,3})(?=\S)|(?<=\S)(\*{1,3}|_{1,3})(?![\w*])/g, ""], // emphasis
];

/** Markdown as plain text on one line. */
export function plainText(markdown: string): string {
  let text = markdown;
  for (const [pattern, replacement] of MARKDOWN) text = text.replace(pattern, replacement);
  return text.replace(/\s+/g, " ");
}

/** A search snippet's parts as plain text, the highlighted parts still highlighted. */
export function plainSnippet(parts: readonly TextPart[]): TextPart[] {
  const marked = parts.map((part) => (part.match ? MATCH_START + part.text + MATCH_END : part.text)).join("");
  const plain = plainText(marked).trim();
  const result: TextPart[] = [];
  for (const [index, piece] of plain.split(new RegExp(`[${MATCH_START}${MATCH_END}]`)).entries()) {
    if (piece) result.push({ text: piece, match: index % 2 === 1 });
  }
  return result;
}

/** What names a dialog: its title, else the start of its first message as plain text, else `fallback`. */
export function dialogName(title: string | null | undefined, preview: string | null | undefined, fallback: string) {
  return title || (preview && plainText(preview).trim()) || fallback;
}
