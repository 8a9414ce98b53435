// The generated typed documents (src/client/generated) must match schema.graphql and the
// operations in the code: run `npm run codegen` after changing either.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generate } from "@graphql-codegen/cli";
import { describe, expect, it } from "vitest";
import config from "../codegen.js";

describe("generated client documents", () => {
  it("are what `npm run codegen` would write now", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "dialogql-codegen-"));
    try {
      const [target, options] = Object.entries(config.generates)[0]!;
      await generate({ ...config, silent: true, generates: { [`${out}/`]: options } }, true);
      const checkedIn = path.resolve(target);
      const files = readdirSync(out).sort();
      expect(files).toEqual(readdirSync(checkedIn).sort());
      for (const file of files) {
        expect(readFileSync(path.join(out, file), "utf8"), file).toBe(readFileSync(path.join(checkedIn, file), "utf8"));
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
