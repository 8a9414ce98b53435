// The embedded database serves one process at a time: PGlite keeps its own copy of the data in
// memory and writes it back, so a second process writing the same directory (`npm run keys` while
// the server runs) would have its writes unseen by the server or lost. Whoever opens DATA_DIR
// first (the server, `npm run keys`, `npm run migrate`) holds DATA_DIR/dialogql.lock, naming its
// pid; any other process that tries refuses to start with a message saying who holds it. A lock
// left by a process that no longer runs (kill -9, a crash) is taken over.
import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from "node:fs";
import path from "node:path";

export const LOCK_FILE = "dialogql.lock";
/** Exit status of a process refused the data directory (EX_TEMPFAIL: try again later). */
export const LOCKED_EXIT_CODE = 75;

export function lockDataDir(dataDir: string): { release(): void } {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, `${process.pid}\n${process.argv.slice(1).join(" ")}\n`);
      closeSync(fd);
      let held = true;
      const release = () => {
        if (held && holderOf(file)?.pid === process.pid) rmSync(file, { force: true });
        held = false;
      };
      process.once("exit", release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = holderOf(file);
      if (holder && isRunning(holder.pid)) refuse(dataDir, holder);
      rmSync(file, { force: true }); // its process is gone
    }
  }
  throw new Error(`could not lock ${file}`);
}

function holderOf(file: string): { pid: number; command: string } | null {
  try {
    const [pid, command = ""] = readFileSync(file, "utf8").split("\n");
    return Number(pid) > 0 ? { pid: Number(pid), command } : null;
  } catch {
    return null;
  }
}

function isRunning(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A clear message and a distinct exit status, not a stack trace: this is an operator's mistake. */
function refuse(dataDir: string, holder: { pid: number; command: string }): never {
  console.error(
    `dialogql: the embedded database in ${path.resolve(dataDir)} is in use by process ${holder.pid} (${holder.command.trim() || "dialogql"}).\n` +
      "The embedded database serves one process at a time: stop the server first, then run this command again\n" +
      "(or run the server on PostgreSQL with DATABASE_URL, where commands and servers can share the database).",
  );
  process.exit(LOCKED_EXIT_CODE);
}
