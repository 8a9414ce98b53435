// `npm run build:server` (run by `npm install` and by `npm start` itself): compiles src/ to dist/, file for
// file and in the same layout (so paths such as "../../prisma/migrations" still resolve), for
// `npm start` to run plain JavaScript. tsx compiled the same files in every start and cost one to
// two seconds of it; esbuild does it in a fraction of a second, so `npm start` rebuilds first and
// never runs a stale build. When no source changed since the last build (same files, sizes and
// modification times) nothing runs at all; otherwise files whose output did not change are not
// rewritten, and outputs of deleted sources are removed. Types are checked by `npm test` (tsc).
// A production install (`npm ci --omit=dev`) has no esbuild and runs the dist/ it was given.
// Plain JavaScript on purpose: it runs before anything is compiled.
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const outdir = path.join(root, "dist");
const stampFile = path.join(outdir, ".sources.json");

const sources = filesUnder(path.join(root, "src")).filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"));
// This script and the locked esbuild version are inputs of the build too.
const inputs = [...sources, import.meta.filename, path.join(root, "package-lock.json")];
const stamp = JSON.stringify(
  inputs.map((file) => [path.relative(root, file), statSync(file).mtimeMs, statSync(file).size]),
);
if (readOr(stampFile, "") === stamp) process.exit(0);

const esbuild = await import("esbuild").catch(() => null);
if (!esbuild) {
  if (readOr(path.join(outdir, "main.js"), null)) process.exit(0);
  console.error(
    "dialogql: dist/ is not built and esbuild (a dev dependency) is not installed: run npm ci, then npm run build",
  );
  process.exit(1);
}
const { build } = esbuild;
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
wanted.add(stampFile);
for (const file of filesUnder(outdir)) if (!wanted.has(file)) rmSync(file);
writeFileSync(stampFile, stamp);

function same(file, contents) {
  const existing = readOr(file, null);
  return existing !== null && Buffer.compare(existing, contents) === 0;
}

function readOr(file, fallback) {
  try {
    return file === stampFile ? readFileSync(file, "utf8") : readFileSync(file);
  } catch {
    return fallback;
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
