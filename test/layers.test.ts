// The layers of docs/architecture.md, read from the source: every folder of src/ imports only
// the folders below it (so no two folders import each other), no two modules import each other
// (directly or round a longer circle, type imports included), and only the entry points turn the
// environment into a configuration and a store.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(import.meta.dirname, "../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

const files = sourceFiles(SRC);
const relative = (file: string) => path.relative(SRC, file);
const texts = new Map(files.map((file) => [relative(file), readFileSync(file, "utf8")]));

/** The modules of src/ a file imports (statically, dynamically or for types), as paths under src/. */
function importsOf(file: string): string[] {
  const text = texts.get(file)!;
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((match) => match[1]!);
  return specifiers
    .map((specifier) => path.normalize(path.join(path.dirname(file), specifier)).replace(/\.js$/, ".ts"))
    .filter((target) => texts.has(target));
}

/** The text without comments. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");

const graph = new Map([...texts.keys()].map((file) => [file, importsOf(file)]));

/**
 * The folders of src/, from the top: each imports only folders below it (docs/architecture.md).
 * Folders on one line are siblings: neither imports the other. `main.ts` is the entry point, above
 * everything; the other files at the root of src/ (config, errors, ids, limits, logger, metrics,
 * request ids, the statement log) are used by every layer and import no folder. The client imports
 * nothing outside itself.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["server"],
  ["rest", "responses-api"],
  ["connections"],
  ["schema"],
  ["generation"],
  ["history-writes"],
  ["auth"],
  ["live"],
  ["services"],
  ["mcp"],
  ["store"],
  ["db"],
  ["formats", "usage"],
  ["vocabulary"],
];

const folderOf = (file: string) =>
  file.includes("/") ? file.split("/")[0]! : file === "main.ts" ? "(entry)" : "(root)";

function rankOf(folder: string): number {
  if (folder === "(entry)") return -1;
  if (folder === "(root)") return LAYERS.length;
  const rank = LAYERS.findIndex((layer) => layer.includes(folder));
  if (rank < 0) throw new Error(`src/${folder}/ is in no layer: add it to LAYERS and docs/architecture.md`);
  return rank;
}

/** Imports that go up, or sideways between two folders of one layer, or out of (or into) the client. */
function layerViolations(imports: ReadonlyMap<string, readonly string[]>): string[] {
  return [...imports].flatMap(([file, targets]) =>
    targets
      .filter((target) => {
        const from = folderOf(file);
        const to = folderOf(target);
        if (from === to) return false;
        if (from === "client" || to === "client") return true;
        return rankOf(to) <= rankOf(from);
      })
      .map((target) => `${file} → ${target}`),
  );
}

describe("the layers", () => {
  it("every folder imports only the folders below it, in the order of docs/architecture.md", () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it("notices a folder importing one above it, or a sibling", () => {
    const planted = new Map(graph);
    planted.set("store/planted.ts", ["services/responses.ts"]);
    planted.set("rest/planted.ts", ["responses-api/api-routes.ts"]);
    planted.set("config.ts", ["db/database.ts"]);
    expect(layerViolations(planted).sort()).toEqual([
      "config.ts → db/database.ts",
      "rest/planted.ts → responses-api/api-routes.ts",
      "store/planted.ts → services/responses.ts",
    ]);
  });

  it("docs/architecture.md states the same order", () => {
    const doc = readFileSync(path.resolve(SRC, "../docs/architecture.md"), "utf8");
    const table = [...doc.matchAll(/^\| [^|]+ \| (`src\/[^|]+) \|/gm)].map((row) =>
      [...row[1]!.matchAll(/`src\/([\w-]+)\/`/g)].map((folder) => folder[1]!),
    );
    expect(table.filter((folders) => folders.length && folders[0] !== "client")).toEqual(LAYERS);
  });

  it("has no import circles", () => {
    const circles: string[] = [];
    const state = new Map<string, "visiting" | "done">();
    const stack: string[] = [];
    const visit = (file: string) => {
      state.set(file, "visiting");
      stack.push(file);
      for (const target of graph.get(file)!) {
        if (state.get(target) === "visiting") circles.push([...stack.slice(stack.indexOf(target)), target].join(" → "));
        else if (!state.has(target)) visit(target);
      }
      stack.pop();
      state.set(file, "done");
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(circles).toEqual([]);
  });

  it("reads the environment into a configuration and a store only in the entry points", () => {
    const entryPoints = [
      "main.ts",
      "auth/keys-cli.ts",
      "db/migrate-cli.ts",
      "db/make-template-cli.ts",
      "services/import-cli.ts",
    ];
    const readers = [...texts]
      .filter(([, text]) => /loadConfig\(process\.env\)|(?<!function )\b(openStore|openDatabase)\(/.test(code(text)))
      .map(([file]) => file)
      .filter((file) => !entryPoints.includes(file) && file !== "store/store.ts")
      .sort();
    expect(readers).toEqual([]);
  });
});
