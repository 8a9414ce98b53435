// `npm run import -- FILE [--tenant <tenant>] [--format <format>] [--dry-run]`: bring a chat app's
// export into the configured database (DATABASE_URL, or the embedded one under DATA_DIR — stop the
// server first then: the embedded database serves one process at a time). FILE is ChatGPT's
// conversations.json, an Open WebUI or LibreChat export, or OpenAI-format JSONL. The whole file is
// read and checked first (a bad record is named, and nothing is stored); then each conversation is
// stored whole, with a progress bar. Importing a file again stores nothing twice.
import "../load-env.js";
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { loadConfig } from "../config.js";
import { applyMigrations } from "../db/migrate.js";
import { ValidationError } from "../errors.js";
import { type ChatExportFormat, chatExportFormats, readChatExport } from "./chat-exports/index.js";
import { storeConversation } from "./import-chats.js";
import { openStore, type Store } from "../store/store.js";

const usage = `usage: npm run import -- FILE [--tenant <tenant>] [--format ${chatExportFormats.join("|")}] [--dry-run]
  FILE: ChatGPT's conversations.json, an Open WebUI or LibreChat export, or OpenAI-format JSONL
  --tenant: whose dialogs they become (default "default", the tenant of development mode)`;

async function main(store: Store, argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { tenant: { type: "string" }, format: { type: "string" }, "dry-run": { type: "boolean" } },
  });
  const [file] = positionals;
  if (!file) return fail("no FILE given");
  const format = values.format?.toUpperCase().replaceAll("-", "_") ?? null;
  if (format && !chatExportFormats.includes(format as ChatExportFormat)) return fail(`unknown format ${values.format}`);
  const text = await readFile(file, "utf8").catch((error: Error) => {
    throw new Error(`Cannot read ${file}: ${error.message}`);
  });
  const read = readChatExport(store.writeLimits, text, format as ChatExportFormat | null);
  console.log(`${file}: ${conversations(read.conversations.length)} (${read.format}), all checked.`);
  if (values["dry-run"]) return 0;
  await applyMigrations(store.database);
  const tenant = values.tenant ?? "default";
  const bar = progressBar(read.conversations.length);
  let imported = 0;
  for (const conversation of read.conversations) {
    if ((await storeConversation(store, conversation, tenant)).created) imported++;
    bar.tick();
  }
  bar.done();
  const skipped = read.conversations.length - imported;
  const before = skipped ? `; ${skipped} ${skipped === 1 ? "was" : "were"} imported before` : "";
  console.log(`Imported ${imported} for tenant "${tenant}"${before}.`);
  return 0;
}

const conversations = (n: number) => `${n} conversation${n === 1 ? "" : "s"}`;

/** A bar redrawn in place on a terminal; on a pipe, a line every tenth of the way. */
function progressBar(total: number) {
  const tty = process.stderr.isTTY;
  let done = 0;
  let lastTenth = -1;
  const draw = () => {
    const share = total ? done / total : 1;
    if (tty) {
      const width = 30;
      const filled = Math.round(share * width);
      process.stderr.write(`\r[${"#".repeat(filled)}${" ".repeat(width - filled)}] ${done}/${total}`);
    } else if (Math.floor(share * 10) > lastTenth) {
      lastTenth = Math.floor(share * 10);
      process.stderr.write(`${done}/${conversations(total)}\n`);
    }
  };
  draw();
  return {
    tick() {
      done++;
      draw();
    },
    done() {
      if (tty) process.stderr.write("\n");
    },
  };
}

function fail(message: string) {
  console.error(`${message}\n${usage}`);
  return 2;
}

let code = 1;
let store: Store | undefined;
try {
  store = await openStore(loadConfig(process.env));
  code = await main(store, process.argv.slice(2));
} catch (error) {
  // A bad record: which one, and what is wrong with it.
  if (error instanceof ValidationError) {
    console.error("Nothing was imported. The file has a problem:");
    for (const problem of error.fieldErrors) console.error(`  ${problem.path.join(" › ")}: ${problem.message}`);
  } else console.error((error as Error).message);
} finally {
  await store?.close();
}
process.exit(code);
