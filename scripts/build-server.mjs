// `npm run build` (run by `npm install` and by `npm start` itself): compiles src/ to dist/, file for
// file and in the same layout (so paths such as "../../prisma/migrations" still resolve), for
// `npm start` to run plain JavaScript. tsx compiled the same files in every start and cost one to
// two seconds of it; esbuild does it in a fraction of a second, so `npm start` rebuilds first and
// never runs a stale build. Files whose output did not change are not rewritten, and outputs of
// deleted sources are removed. Types are checked by `npm test` (tsc), not here.
// Plain JavaScript on purpose: it runs before anything is compiled.
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const outdir = path.join(root, "dist");

const sources = filesUnder(path.join(root, "src")).filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"));
const result = await build({
  entryPoints: sources,
  outbase: path.join(root, "src"),
  outdir,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "linked",
  write: false,
  logLevel: "warning",
});

const wanted = new Set();
for (const output of result.outputFiles) {
  wanted.add(output.path);
  if (same(output.path, output.contents)) continue;
  mkdirSync(path.dirname(output.path), { recursive: true });
  // Renamed into place: a server starting meanwhile reads the old file or the new one, never half.
  const temporary = `${output.path}.${process.pid}.tmp`;
  writeFileSync(temporary, output.contents);
  renameSync(temporary, output.path);
}
for (const file of filesUnder(outdir)) if (!wanted.has(file)) rmSync(file);

function same(file, contents) {
  try {
    return Buffer.compare(readFileSync(file), contents) === 0;
  } catch {
    return false;
  }
}

function filesUnder(dir) {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}
