// Who is calling. An API key (Authorization: Bearer <key> on HTTP and SSE, connectionParams on
// graphql-ws) names a tenant. With no key configured at all, and AUTH not `required`, the server
// runs in single-tenant development mode: every caller is tenant "default", whatever key it sends.
//
// Per request this costs at most one cached lookup: a key's verification is kept in memory (by
// the key's hash) until the key is revoked. Revocations reach every instance twice over: as a
// notice on the live bus (at once, through Redis when there is one) and by polling the database
// every second (when the notice is lost, or comes from `npm run keys` without Redis). A
// revoked key's open WebSocket and SSE connections are closed.
import { GraphQLError } from "graphql";
import { LRUCache } from "lru-cache";
import type { LiveBus } from "../live/live-bus.js";
import { logger } from "../logger.js";
import type { Store } from "../store/store.js";
import { activeKeyExists, findActiveKey, hashKey, looksLikeKey, revokedSince } from "./api-keys.js";

export const DEVELOPMENT_TENANT = "default";

export interface Viewer {
  tenantId: string;
  /** The API key's id; null in single-tenant development mode. */
  keyId: string | null;
  /** May manage its tenant's budgets (an admin key, or development mode, which has no keys). */
  admin?: boolean;
}

export type AuthMode = "auto" | "required";

export interface AuthenticatorOptions {
  mode: AuthMode;
  store: Store;
  live: LiveBus;
  /** How often the database is asked for revocations, in ms. */
  revocationPollMs?: number;
}

/** A notice on the live bus, sent by `npm run keys` and by instances. */
export type KeyNotice = { type: "keyRevoked"; keyId: string } | { type: "keysChanged" };

// Whether any key exists decides development mode for unauthenticated calls; a key created by
// `npm run keys` is noticed within this time (at once with Redis).
const KEYS_EXIST_TTL_MS = 5_000;
// An unknown key is not looked up again for this long (a client retrying a typo costs nothing),
// short enough that a key created a moment ago works almost at once.
const UNKNOWN_KEY_TTL_MS = 2_000;
// Revocations polled with this much overlap: a revocation committed just after a poll started
// but stamped just before it is still seen by the next one.
const POLL_OVERLAP_MS = 30_000;

export function authError(message: string) {
  return new GraphQLError(message, {
    extensions: { code: "UNAUTHENTICATED", http: { status: 401, headers: { "www-authenticate": "Bearer" } } },
  });
}

export function createAuthenticator({ mode, store, live, revocationPollMs = 1_000 }: AuthenticatorOptions) {
  const keys = knownKeys(store);
  const connections = connectionsByKey();
  const revoke = (keyId: string) => {
    keys.forgetViewersOf(keyId);
    connections.closeAll(keyId);
    keys.keysChanged();
  };
  const stopWatching = watchRevocations(store, live, revocationPollMs, {
    revoke,
    inUse: (keyId) => connections.has(keyId) || keys.isCached(keyId),
    keysChanged: keys.keysChanged,
  });

  return {
    mode,

    /**
     * The caller of a request whose credential is `authorization` ("Bearer <key>", or null when
     * none was sent). Throws UNAUTHENTICATED (401) for a missing, malformed, unknown or revoked key.
     */
    authenticate: (authorization: string | null | undefined): Promise<Viewer> => viewerOf(mode, keys, authorization),

    /** Registers how to close a long-lived connection made with `keyId`; returns the unregistration. */
    trackConnection: connections.track,

    /** What start-up should say about how callers are identified. */
    async describe(): Promise<{ level: "info" | "warn"; message: string }> {
      return authDescription(mode, await keys.anyKeys());
    },

    close: stopWatching,
  };
}

const DEVELOPMENT_VIEWER: Viewer = { tenantId: DEVELOPMENT_TENANT, keyId: null, admin: true };

/** The caller named by an Authorization header, through the verified keys kept in memory. */
async function viewerOf(mode: AuthMode, keys: KnownKeys, authorization: string | null | undefined): Promise<Viewer> {
  if (!authorization) {
    if (mode === "required") throw authError("An API key is required: send Authorization: Bearer <key>");
    if (await keys.anyKeys()) throw authError("An API key is required: send Authorization: Bearer <key>");
    return { ...DEVELOPMENT_VIEWER };
  }
  // OpenAI-compatible clients always send some key (the SDKs refuse to start without one):
  // while no key exists, one that is not a dialogql key is development mode's "any value".
  const refuse = async (message: string): Promise<Viewer> => {
    if (mode === "auto" && !(await keys.anyKeys())) return { ...DEVELOPMENT_VIEWER };
    throw authError(message);
  };
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) return refuse("Authorization must be: Bearer <API key>");
  const key = match[1]!;
  if (!looksLikeKey(key)) return refuse("Invalid API key");
  return (await keys.verify(hashKey(key))) ?? refuse("Invalid or revoked API key");
}

type KnownKeys = ReturnType<typeof knownKeys>;

/**
 * What this instance knows of the keys: the verified ones by hash (until revoked), the unknown
 * ones for a moment, and whether any key exists at all (for a few seconds).
 */
function knownKeys(store: Store) {
  const verified = new LRUCache<string, Viewer>({ max: 10_000 });
  const unknown = new LRUCache<string, true>({ max: 10_000, ttl: UNKNOWN_KEY_TTL_MS });
  let keysExist: { value: Promise<boolean>; at: number } | null = null;
  return {
    anyKeys() {
      if (!keysExist || Date.now() - keysExist.at > KEYS_EXIST_TTL_MS) {
        const value = activeKeyExists(store);
        keysExist = { value, at: Date.now() };
        value.catch(() => (keysExist = null));
      }
      return keysExist.value;
    },
    keysChanged() {
      keysExist = null;
    },
    /** The viewer of the key with this hash, or null when no active key has it. */
    async verify(hash: string): Promise<Viewer | null> {
      const cached = verified.get(hash);
      if (cached) return cached;
      if (unknown.has(hash)) return null;
      const found = await findActiveKey(store, hash);
      if (!found) {
        unknown.set(hash, true);
        return null;
      }
      const viewer = { tenantId: found.tenantId, keyId: found.id, admin: found.admin };
      verified.set(hash, viewer);
      return viewer;
    },
    forgetViewersOf(keyId: string) {
      for (const [hash, viewer] of verified.entries()) if (viewer.keyId === keyId) verified.delete(hash);
    },
    isCached: (keyId: string) => [...verified.values()].some((viewer) => viewer.keyId === keyId),
  };
}

/** The long-lived connections open with each key, to close when the key is revoked. */
function connectionsByKey() {
  const open = new Map<string, Set<() => void>>();
  return {
    has: (keyId: string) => open.has(keyId),
    track(keyId: string, close: () => void) {
      let closers = open.get(keyId);
      if (!closers) open.set(keyId, (closers = new Set()));
      closers.add(close);
      return () => {
        closers!.delete(close);
        if (!closers!.size && open.get(keyId) === closers) open.delete(keyId);
      };
    },
    closeAll(keyId: string) {
      const closers = open.get(keyId);
      open.delete(keyId);
      if (closers?.size) logger.info(`API key ${keyId} revoked: closing ${closers.size} open connection(s)`);
      closers?.forEach((close) => close());
    },
  };
}

/**
 * Revocations and new keys, heard as notices on the live bus and polled from the database (for a
 * notice lost, or sent without Redis). Returns how to stop polling.
 */
function watchRevocations(
  store: Store,
  live: LiveBus,
  pollMs: number,
  on: { revoke(keyId: string): void; inUse(keyId: string): boolean; keysChanged(): void },
) {
  live.onNotice((notice) => {
    const keyNotice = notice as KeyNotice;
    if (keyNotice?.type === "keyRevoked" && typeof keyNotice.keyId === "string") on.revoke(keyNotice.keyId);
    if (keyNotice?.type === "keysChanged") on.keysChanged();
  });
  let pollSince: Date | null = null;
  const poll = async () => {
    try {
      const { ids, now } = await revokedSince(store, pollSince && new Date(pollSince.getTime() - POLL_OVERLAP_MS));
      pollSince = now;
      for (const keyId of ids) if (on.inUse(keyId)) on.revoke(keyId);
    } catch (error) {
      logger.debug(`[auth] revocation poll failed: ${(error as Error).message}`);
    }
  };
  const timer = setInterval(poll, pollMs);
  timer.unref();
  return () => clearInterval(timer);
}

function authDescription(mode: AuthMode, keys: boolean): { level: "info" | "warn"; message: string } {
  if (mode === "required") {
    return keys
      ? { level: "info", message: "authentication: AUTH=required, every call needs an API key" }
      : {
          level: "warn",
          message:
            "authentication: AUTH=required but no API key exists yet: every call is refused until one is created (npm run keys -- create --tenant <name>)",
        };
  }
  return keys
    ? { level: "info", message: "authentication: API keys exist, every call needs one" }
    : {
        level: "warn",
        message: `single-tenant development mode: no API key exists, so every caller is tenant "${DEVELOPMENT_TENANT}" without authentication. Create keys (npm run keys -- create --tenant <name>) and set AUTH=required in production.`,
      };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;
