// Where the embedded database lives, and what a new one starts from. Copying the template into an
// empty data directory is the slowest step of a first start, and needs only the file system, so
// main.ts begins it before loading the server's modules; openEmbedded() then takes the same
// preparation. Loads nothing heavy for that reason.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { logger } from "../logger.js";
import { copyTemplateTo, findTemplate, type Template } from "./pglite-template.js";

export interface EmbeddedDataDir {
  /** PGlite's data directory (DATA_DIR/pglite), or `memory://…`. */
  location: string;
  inMemory: boolean;
  /** What to start a new database from: copied to `location` already, or loaded by PGlite when
   * in memory. Undefined: the database exists, or there is no usable template (initdb). */
  template?: Template;
}

const preparations = new Map<string, Promise<EmbeddedDataDir>>();
const keyOf = (dataDir: string, templateRoot: string) => JSON.stringify([dataDir, templateRoot]);

/** Starts preparing the data directory now; takePreparedDataDir() gets the outcome. */
export function beginPreparingDataDir(dataDir: string, templateRoot: string): Promise<EmbeddedDataDir> {
  const key = keyOf(dataDir, templateRoot);
  let preparation = preparations.get(key);
  if (!preparation) preparations.set(key, (preparation = prepare(dataDir, templateRoot)));
  return preparation;
}

/** The preparation begun earlier, or a new one; the next call prepares afresh (the database may
 * have been created since). Never rejects: a failed restore falls back to initdb. */
export function takePreparedDataDir(dataDir: string, templateRoot: string): Promise<EmbeddedDataDir> {
  const preparation = beginPreparingDataDir(dataDir, templateRoot);
  preparations.delete(keyOf(dataDir, templateRoot));
  return preparation;
}

async function prepare(dataDir: string, templateRoot: string): Promise<EmbeddedDataDir> {
  const inMemory = dataDir.startsWith("memory://");
  const location = inMemory ? dataDir : path.resolve(dataDir, "pglite");
  try {
    if (!inMemory && !(await isEmptyDirectory(location))) return { location, inMemory };
    const template = await findTemplate(templateRoot);
    if (template && !inMemory) await copyTemplateTo(template, location);
    return { location, inMemory, template };
  } catch (error) {
    // Nothing to clean up: the copy goes aside and only replaces an empty directory at its end.
    logger.warn(`[db] could not start from the PGlite template (${(error as Error).message}); running initdb`);
    return { location, inMemory };
  }
}

async function isEmptyDirectory(dir: string) {
  const entries = await readdir(dir).catch((error) => (error.code === "ENOENT" ? [] : Promise.reject(error)));
  return entries.length === 0;
}
