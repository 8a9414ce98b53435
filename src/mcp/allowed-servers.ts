// Which MCP servers dialogql may call: MCP_ALLOWED_SERVERS, comma-separated URL prefixes. A
// server_url is allowed when it starts with a prefix and the match ends at a boundary of the URL
// (its end, or "/", "?", "#", or ":" before a port when the prefix ends at the host), so
// "http://localhost" allows "http://localhost:4150/mcp" but not "http://localhost.evil.example".
// URLs are compared in their parsed, normalised form, so "http://localhost@evil.example" is
// evil.example, and URLs with credentials are refused outright.
// Unset: nothing in production; loopback servers (http://localhost, http://127.0.0.1, http://[::1])
// in development, so a server on the same machine works with no setting.

export type AllowedServers = readonly string[];

const developmentDefault = ["http://localhost", "http://127.0.0.1", "http://[::1]"];

export function allowedServersFrom(setting: string | undefined, nodeEnv: string): AllowedServers {
  if (setting === undefined) return nodeEnv === "production" ? [] : developmentDefault;
  return setting
    .split(",")
    .map((prefix) => prefix.trim())
    .filter(Boolean);
}

/** Why `url` may not be called, or null when it may. */
export function refusalOf(url: string, allowed: AllowedServers): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${url} is not a URL`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return `${url} is not an http(s) URL`;
  if (parsed.username || parsed.password) return `${url} carries credentials; send them in headers`;
  if (!allowed.length) return `the MCP server ${url} is not allowed: MCP_ALLOWED_SERVERS is not set`;
  const href = parsed.href;
  const match = allowed.some((prefix) => {
    const normal = normalisedPrefix(prefix);
    if (!href.startsWith(normal)) return false;
    const next = href.charAt(normal.length);
    return normal.endsWith("/") || next === "" || "/?#".includes(next) || (next === ":" && !hasPath(normal));
  });
  return match ? null : `the MCP server ${url} is not in MCP_ALLOWED_SERVERS`;
}

/** A prefix as URL.href writes it (lower-case host), without the "/" URL adds to a bare origin. */
function normalisedPrefix(prefix: string) {
  try {
    const href = new URL(prefix).href;
    return prefix.endsWith("/") || href.length > new URL(prefix).origin.length + 1 ? href : href.replace(/\/$/, "");
  } catch {
    return prefix;
  }
}

const hasPath = (prefix: string) => /^[a-z]+:\/\/[^/]+\//i.test(prefix);
