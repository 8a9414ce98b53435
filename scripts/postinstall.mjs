// `npm install` / `npm ci` runs this. Two cases:
// - A development install (devDependencies present): build everything — the Prisma client,
//   the web viewer, the server's JavaScript — then the PGlite template new databases start from.
// - A production install of a built tree (`npm ci --omit=dev`, as the Dockerfile's last stage
//   does): nothing can be built without the dev tools, and nothing needs to be; check that the
//   build is there, then make the PGlite template with the built JavaScript.
// Plain JavaScript on purpose: it runs before anything is compiled.
import { execFileSync, execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const require = createRequire(path.join(root, "package.json"));
const installed = (name) => {
  try {
    require.resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
};

const buildTools = ["prisma", "vite", "esbuild"];
if (buildTools.every(installed) && existsSync(path.join(root, "src"))) {
  execSync("npm run build", { cwd: root, stdio: "inherit" });
} else {
  const needed = ["dist/main.js", "dist/generated/prisma/client.js", "web/dist/index.html"];
  const missing = needed.filter((file) => !existsSync(path.join(root, file)));
  if (missing.length) {
    console.error(
      `dialogql: a production install needs a built tree, and ${missing.join(", ")} ${missing.length > 1 ? "are" : "is"} missing.\n` +
        "Build first with the dev dependencies (npm ci && npm run build), or install without --omit=dev.",
    );
    process.exit(1);
  }
}
// Never fails the install: without a template a new embedded database runs initdb instead.
execFileSync(process.execPath, [path.join(root, "dist/db/make-template-cli.js")], { cwd: root, stdio: "inherit" });
