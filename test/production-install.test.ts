// A production install starts: the Dockerfile's runtime stage, performed on a temporary directory
// (Docker cannot build here: no registry for the base image). Its COPY lines take the built tree
// (dist/, web/dist, migrations…) from this checkout, its `npm ci --omit=dev` installs the
// production dependencies only (from the local npm cache when it can), and then `npm start`,
// `npm run migrate` and `npm run keys` must work with no dev dependency (no tsx, esbuild, vite or
// prisma CLI) — as the Dockerfile's image would.
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const run = promisify(execFile);
let dir: string;
let child: ChildProcess | undefined;

/** The runtime stage of the Dockerfile: what it copies, and its npm ci command. */
function runtimeStage() {
  const text = readFileSync(path.join(ROOT, "Dockerfile"), "utf8").replace(/\\\n/g, " ");
  const stage = text.slice(text.search(/^FROM .* AS runtime$/m));
  const copies = [...stage.matchAll(/^COPY --from=build (.+)$/gm)].map((match) => {
    const parts = match[1]!.trim().split(/\s+/);
    const destination = parts.pop()!;
    return { sources: parts.map((source) => path.relative("/app", source)), destination };
  });
  const npmCi = /^RUN (npm ci [^&]+)/m.exec(stage)![1]!.trim().split(/\s+/).slice(1);
  // After the dependencies, the postinstall: it needs the built tree (the PGlite template).
  const postinstall = /^RUN node (scripts\/postinstall\.mjs)/m.exec(stage)?.[1];
  return { copies, npmCi, postinstall };
}

/** Each stage's instructions up to its `npm ci`: what a change must touch to install again. */
function beforeInstall() {
  const text = readFileSync(path.join(ROOT, "Dockerfile"), "utf8").replace(/\\\n/g, " ");
  return text
    .split(/^FROM /m)
    .slice(1)
    .map((stage) => {
      const lines = stage.split("\n").filter((line) => /^(COPY|RUN) /.test(line));
      return lines.slice(
        0,
        lines.findIndex((line) => /^RUN npm ci /.test(line)),
      );
    });
}

/** The environment of the image's process, without the test runner's own settings. */
function productionEnv(extra: Record<string, string> = {}) {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of ["DATABASE_URL", "REDIS_URL", "DATA_DIR", "PORT", "HOST", "LOG_LEVEL", "PGLITE_TEMPLATE_DIR"])
    delete env[name];
  return { ...env, NODE_ENV: "production", LOG_LEVEL: "info", ...extra };
}

let installLog = "";
afterAll(() => {
  child?.kill("SIGKILL");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(process.env.TEST_DATABASE_URL)("a production install (the Dockerfile's runtime stage)", () => {
  beforeAll(async () => {
    // The tree as the build stage leaves it: dist/ current (web/dist is kept current by the global setup).
    execFileSync(process.execPath, ["scripts/build-server.mjs"], { cwd: ROOT });
    dir = mkdtempSync(path.join(tmpdir(), "dialogql-production-"));
    const { copies, npmCi, postinstall } = runtimeStage();
    expect(copies.length).toBeGreaterThan(3);
    for (const { sources, destination } of copies) {
      for (const source of sources) {
        const target =
          destination.endsWith("/") && sources.length > 1
            ? path.join(dir, destination, path.basename(source))
            : path.join(dir, destination);
        cpSync(path.join(ROOT, source), target, { recursive: true });
      }
    }
    const { stdout, stderr } = await run("npm", [...npmCi, "--prefer-offline"], {
      cwd: dir,
      env: productionEnv(),
      maxBuffer: 32 * 1024 * 1024,
    }).catch((error) => {
      throw new Error(`npm ci --omit=dev failed:\n${error.stdout}\n${error.stderr}`);
    });
    installLog = stdout + stderr;
    if (postinstall) {
      const made = await run(process.execPath, [postinstall], { cwd: dir, env: productionEnv() });
      installLog += made.stdout + made.stderr;
    }
  }, 300_000);

  it("installs the dependencies of each stage from the package files alone, before the tree (a cached layer)", () => {
    const stages = beforeInstall();
    expect(stages).toHaveLength(2);
    for (const copied of stages) {
      expect(copied.length).toBeGreaterThan(0);
      for (const line of copied)
        expect(line).toMatch(/^COPY (--from=build )?(\/app\/)?package\.json (\/app\/)?package-lock\.json \.\/$/);
    }
  });

  it("installs without dev dependencies and makes the PGlite template", () => {
    for (const tool of ["tsx", "esbuild", "vite", "prisma", "typescript", "vitest"]) {
      expect(existsSync(path.join(dir, "node_modules", tool)), tool).toBe(false);
    }
    expect(installLog).toMatch(/PGlite template with \d+ migrations/);
    expect(existsSync(path.join(dir, "src"))).toBe(false);
  });

  it("prints no engine warning and no install-scripts notice", () => {
    // test/install-policy.test.ts checks the whole lock; this is what npm itself says.
    expect(installLog).not.toMatch(/EBADENGINE|install-scripts/);
  });

  it("`npm run migrate` and `npm run keys` work without tsx", async () => {
    const env = productionEnv({ DATA_DIR: path.join(dir, "data") });
    const migrate = await run("npm", ["run", "--silent", "migrate"], { cwd: dir, env });
    expect(migrate.stdout).toMatch(/is up to date|Applied/);
    const keys = await run("npm", ["run", "--silent", "keys", "--", "create", "--tenant", "acme"], { cwd: dir, env });
    expect(keys.stdout).toContain('for tenant "acme"');
  });

  it("`npm start` serves the viewer, GraphQL and /ready", async () => {
    const started = spawn("npm", ["start"], {
      cwd: dir,
      env: productionEnv({ DATA_DIR: path.join(dir, "data"), PORT: "0", HOST: "127.0.0.1", AUTH: "auto" }),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    child = started;
    let output = "";
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const listening = /listening on (http:\/\/[^\s"]+)/.exec(output);
        if (listening) resolve(listening[1]!);
      };
      started.stdout!.on("data", onData);
      started.stderr!.on("data", onData);
      started.once("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
    });
    try {
      expect((await fetch(`${url}/ready`)).status).toBe(200);
      const viewer = await fetch(`${url}/`);
      expect(viewer.status).toBe(200);
      expect(await viewer.text()).toContain('<div id="root"');
      // The key made above switched AUTH=auto to keys required: the API says so, as it should.
      const answer = await fetch(`${url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ dialogs(first: 1) { edges { node { id } } } }" }),
      });
      expect(answer.status).toBe(401);
    } finally {
      process.kill(-started.pid!, "SIGTERM");
      await new Promise((resolve) => started.once("exit", resolve));
      child = undefined;
    }
  });
});
