// Per-event tools in the event's header: copy its text, and switch to its raw JSON.
import { useState } from "react";
import type { HistoryEvent } from "../../../../src/client/index.js";
import { prettyJson } from "../../lib/format.js";

/** What "copy" copies: the text a reader sees (arguments as JSON for a tool call). */
export function copyableText(event: HistoryEvent): string {
  if (event.__typename === "ToolCallEvent") return prettyJson(event.args);
  return event.content;
}

export function rawJson(event: HistoryEvent): string {
  return prettyJson(event);
}

export function EventTools({
  event,
  raw,
  onToggleRaw,
}: {
  event: HistoryEvent;
  raw: boolean;
  onToggleRaw: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await copyText(copyableText(event));
    setCopied(true);
    setTimeout(() => setCopied(false), 1_500);
  };
  return (
    <span className="event-tools">
      <button type="button" onClick={() => void copy()} title="Copy the text" data-testid="copy-event">
        {copied ? "copied" : "copy"}
      </button>
      <button
        type="button"
        onClick={onToggleRaw}
        aria-pressed={raw}
        title="Show the event as JSON"
        data-testid="raw-event"
      >
        {raw ? "rendered" : "JSON"}
      </button>
    </span>
  );
}

// The async clipboard needs a secure context (https or localhost); a served viewer on another host
// falls back to the older selection copy.
async function copyText(text: string) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      return await navigator.clipboard.writeText(text);
    } catch {
      // fall through: permission refused
    }
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  document.execCommand("copy");
  area.remove();
}
