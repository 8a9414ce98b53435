// Small formatting helpers for dates, token counts and JSON.
import type { ResponseSummary } from "../../../src/client/index.js";

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
}

export function formatAge(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  return new Date(iso).toLocaleDateString();
}

export function formatUsage(usage: ResponseSummary["usage"]): string | null {
  if (!usage) return null;
  const parts = [
    usage.inputTokens != null && `${usage.inputTokens} in`,
    usage.outputTokens != null && `${usage.outputTokens} out`,
    usage.reasoningTokens != null && `${usage.reasoningTokens} reasoning`,
    usage.totalTokens != null && `${usage.totalTokens} total`,
  ].filter(Boolean);
  return parts.length ? `${parts.join(" · ")} tokens` : null;
}

export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** Tool output that is JSON reads better indented; anything else is shown as written. */
export function prettyIfJson(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return text;
  try {
    return prettyJson(JSON.parse(trimmed));
  } catch {
    return text;
  }
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
