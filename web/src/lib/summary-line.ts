// The one line a collapsed reasoning shows: its first line with Markdown markup taken off, and
// only markup — an underscore or asterisk inside a word (functools.lru_cache, 2*3*4) is text.
export function summaryLine(text: string, max = 90): string {
  const line = (text.trim().split("\n")[0] ?? "")
    .replace(/^\s{0,3}(#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)/, "")
    .replace(/`([^`]+)`/g, "$1")
    .replace(/(^|\W)(\*\*|__)(?=\S)(.+?)(?<=\S)\2(?!\w)/g, "$1$3")
    .replace(/(^|[^\w*])([*_])(?=\S)(.+?)(?<=\S)\2(?![\w*])/g, "$1$3")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .trim();
  return line.length > max ? `${line.slice(0, max)}…` : line || "Show reasoning";
}
