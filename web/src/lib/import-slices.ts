// A chat export cut into slices small enough for one request each: a JSON array a few
// conversations at a time, JSON Lines a few hundred lines at a time; each slice knows where it
// starts in the file, so the server's problems name records as the file numbers them.
export interface Slice {
  data: string;
  offset: number;
}

const CONVERSATIONS_PER_SLICE = 20;
const LINES_PER_SLICE = 200;
// Kept under the server's default request limit (8 MiB) with room to spare.
const MAX_SLICE_CHARS = 4_000_000;

export function sliceExport(text: string): Slice[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return sliceLines(text);
  }
  if (!Array.isArray(json)) return [{ data: text, offset: 0 }];
  const slices: Slice[] = [];
  let start = 0;
  while (start < json.length) {
    let end = Math.min(json.length, start + CONVERSATIONS_PER_SLICE);
    let data = JSON.stringify(json.slice(start, end));
    // A slice of very long conversations is cut smaller (down to one conversation).
    while (data.length > MAX_SLICE_CHARS && end - start > 1) {
      end = start + Math.max(1, Math.floor((end - start) / 2));
      data = JSON.stringify(json.slice(start, end));
    }
    slices.push({ data, offset: start });
    start = end;
  }
  return slices;
}

function sliceLines(text: string): Slice[] {
  const lines = text.split("\n");
  const slices: Slice[] = [];
  for (let start = 0; start < lines.length; start += LINES_PER_SLICE) {
    const data = lines.slice(start, start + LINES_PER_SLICE).join("\n");
    if (data.trim()) slices.push({ data, offset: start });
  }
  return slices;
}
