// A fresh `npm ci` on the oldest Node that `engines` allows prints no engine warnings and no
// install-scripts notice. Both follow from package-lock.json, read here instead of installing
// (which takes minutes): npm warns EBADENGINE for a locked package whose `engines.node` refuses the
// running Node, and lists every locked package with an install script that `allowScripts` in
// package.json does not decide (docs/operations.md, "Installing").
import { readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const readJson = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), "utf8"));

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
  hasInstallScript?: boolean;
}
const manifest = readJson("package.json");
const locked = Object.entries(readJson("package-lock.json").packages as Record<string, LockedPackage>)
  // "" is this project; its own postinstall always runs.
  .filter(([where]) => where !== "")
  .map(([where, entry]) => ({
    name: where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length),
    ...entry,
  }));

describe("a fresh install on the declared Node", () => {
  const oldest = semver.minVersion(manifest.engines.node)!.version;

  it("locks only packages whose engines accept the oldest Node allowed", () => {
    expect(oldest).toBe("20.19.0");
    const refusing = locked
      .map(({ name, version, engines }) => ({
        name,
        version,
        node: Array.isArray(engines) ? undefined : engines?.node,
      }))
      .filter(({ node }) => node !== undefined && !semver.satisfies(oldest, node))
      .map(({ name, version, node }) => `${name}@${version} wants node ${node}`);
    expect(refusing).toEqual([]);
  });

  it("decides every install script in allowScripts (true runs it, false skips it)", () => {
    const decided = manifest.allowScripts as Record<string, boolean>;
    for (const value of Object.values(decided)) expect(typeof value).toBe("boolean");
    const undecided = locked
      .filter(({ hasInstallScript }) => hasInstallScript)
      .filter(({ name, version }) => !(name in decided) && !(`${name}@${version}` in decided))
      .map(({ name, version }) => `${name}@${version}`);
    expect(undecided).toEqual([]);
    // An entry for a package no longer locked with a script is a decision about nothing.
    const scripted = new Set(locked.filter((entry) => entry.hasInstallScript).map(({ name }) => name));
    expect(Object.keys(decided).filter((key) => !scripted.has(key.replace(/(?<=.)@.*$/, "")))).toEqual([]);
  });
});
