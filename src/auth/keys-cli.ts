// `npm run keys -- <command>`: manage API keys in the configured database (DATABASE_URL, or the
// embedded one under DATA_DIR — stop the server first then: the embedded database serves one
// process at a time).
//
//   create --tenant <tenant> [--name <label>] [--admin]   prints the new key, once (`create <tenant>`
//                                                          too; an admin key manages its tenant's
//                                                          budgets in GraphQL)
//   list [--tenant <tenant>]                    id, tenant, name, prefix, created, revoked
//   revoke <key id or prefix>                   refused from now on; open connections closed
//   budget set|list|remove …                    budgets per key or tenant (src/auth/budgets-cli.ts)
//
// With REDIS_URL, running servers hear of a revocation at once; otherwise within seconds (they
// poll the database).
import "../load-env.js";
import { parseArgs } from "node:util";
import { Cluster, Redis } from "ioredis";
import { NOTICES } from "../live/live-bus.js";
import { parseClusterNodes } from "../live/redis-cluster-fanout.js";
import { type Config, loadConfig } from "../config.js";
import { applyMigrations } from "../db/migrate.js";
import { openStore, type Store } from "../store/store.js";
import { createApiKey, listApiKeys, revokeApiKey } from "./api-keys.js";
import { budgetUsage, runBudgetCommand } from "./budgets-cli.js";
import type { KeyNotice } from "./authenticator.js";

const usage = `usage: npm run keys -- create --tenant <tenant> [--name <label>] [--admin]
       npm run keys -- list [--tenant <tenant>]
       npm run keys -- revoke <key id or prefix>
${budgetUsage}`;

async function main(store: Store, config: Config, argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      tenant: { type: "string" },
      name: { type: "string" },
      admin: { type: "boolean" },
      key: { type: "string" },
      tokens: { type: "string" },
      cost: { type: "string" },
      per: { type: "string" },
    },
  });
  const [command, target, budgetTarget] = positionals;
  await applyMigrations(store.database);
  switch (command) {
    case "create": {
      // `create acme` reads as `create --tenant acme`: both are how people type it.
      const tenant = values.tenant ?? target;
      if (!tenant) return fail("create needs --tenant <tenant>");
      const created = await createApiKey(store, tenant, values.name, values.admin ?? false);
      await notify(config, { type: "keysChanged" });
      console.log(
        `Created ${values.admin ? "admin key " : ""}${created.id} for tenant "${created.tenantId}". The key (shown only now):\n\n  ${created.key}\n`,
      );
      console.log(`Use it as: Authorization: Bearer ${created.key.slice(0, 10)}…`);
      return 0;
    }
    case "list": {
      const keys = await listApiKeys(store, values.tenant);
      if (!keys.length) console.log("No API keys.");
      for (const key of keys) {
        const state = key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : "active";
        console.log(
          `${key.id}  ${key.tenantId}  ${key.prefix}…  ${key.name ?? "-"}  created ${key.createdAt.toISOString()}  ${state}`,
        );
      }
      return 0;
    }
    case "revoke": {
      if (!target) return fail("revoke needs a key id or prefix");
      const revoked = await revokeApiKey(store, target);
      if (!revoked) return fail(`no API key ${target}`);
      await notify(config, { type: "keyRevoked", keyId: revoked.id });
      console.log(`Revoked ${revoked.id} (tenant "${revoked.tenantId}").`);
      return 0;
    }
    case "budget": {
      const problem = await runBudgetCommand(store, target, budgetTarget, values);
      return problem ? fail(problem) : 0;
    }
    default:
      return fail(command ? `unknown command ${command}` : "no command");
  }
}

/** Tells running instances through Redis (the live bus's notices channel), when there is one. */
async function notify(config: Config, notice: KeyNotice) {
  const message = JSON.stringify({ origin: "keys-cli", payload: notice });
  const options = { maxRetriesPerRequest: 1, lazyConnect: true };
  // On a cluster the notices channel is a sharded one, as every channel of the live bus is.
  const redis = config.REDIS_CLUSTER_NODES
    ? new Cluster(parseClusterNodes(config.REDIS_CLUSTER_NODES), { lazyConnect: true, redisOptions: options })
    : config.REDIS_URL
      ? new Redis(config.REDIS_URL, options)
      : null;
  if (!redis) return;
  redis.on("error", () => undefined);
  try {
    await redis.connect();
    await (redis instanceof Cluster ? redis.spublish(NOTICES, message) : redis.publish(NOTICES, message));
  } catch (error) {
    console.warn(`Could not tell running servers through Redis (${(error as Error).message}); they poll the database.`);
  } finally {
    redis.disconnect();
  }
}

function fail(message: string) {
  console.error(`${message}\n${usage}`);
  return 2;
}

let code = 1;
let store: Store | undefined;
try {
  const config = loadConfig(process.env);
  store = await openStore(config);
  code = await main(store, config, process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
} finally {
  await store?.close();
}
process.exit(code);
