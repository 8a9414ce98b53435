// The layers of docs/architecture.md, read from the source: the lower layers never import the
// transport or schema layers, no two modules import each other (directly or round a longer
// circle, type imports included), and only the entry points turn the environment into a
// configuration and a store.
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

describe("the layers", () => {
  it("below the transport, nothing imports src/server, src/schema, src/rest or src/responses-api", () => {
    const lower = ["db/", "store/", "services/", "live/", "auth/", "formats/", "generation/", "usage/"];
    const upper = ["server/", "schema/", "rest/", "responses-api/"];
    const crossings = [...graph].flatMap(([file, imports]) =>
      lower.some((layer) => file.startsWith(layer))
        ? imports.filter((target) => upper.some((layer) => target.startsWith(layer))).map((t) => `${file} → ${t}`)
        : [],
    );
    expect(crossings).toEqual([]);
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
    const entryPoints = ["main.ts", "auth/keys-cli.ts", "db/migrate-cli.ts", "db/make-template-cli.ts"];
    const readers = [...texts]
      .filter(([, text]) => /loadConfig\(process\.env\)|(?<!function )\b(openStore|openDatabase)\(/.test(code(text)))
      .map(([file]) => file)
      .filter((file) => !entryPoints.includes(file) && file !== "store/store.ts")
      .sort();
    expect(readers).toEqual([]);
  });
});
