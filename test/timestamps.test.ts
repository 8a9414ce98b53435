// Reads outside Prisma parse `timestamp` columns themselves (src/db/prisma.ts): as UTC, like
// Prisma, to the millisecond, whatever the process's time zone.
import { describe, expect, it } from "vitest";
import { database } from "./support/database.js";
import { parseUtcTimestamp } from "../src/db/utc-timestamps.js";

const samples = [
  "2026-11-22 05:40:54.123",
  "2026-01-01 00:00:00",
  "1999-12-31 23:59:59.5",
  "2026-03-29 01:30:00.05",
  "2024-02-29 12:00:00.999",
  "0099-01-01 00:00:00",
];

describe("timestamps read outside Prisma", () => {
  it("parse as the UTC instant the text names", () => {
    for (const text of samples) {
      expect(parseUtcTimestamp(text).toISOString()).toBe(new Date(`${text.replace(" ", "T")}Z`).toISOString());
    }
  });

  it("come back from the database as the instant that was written", async () => {
    const rows = await database.query<{ t: Date; iso: string }>(
      `SELECT v::timestamp(3) AS t, to_char(v::timestamp(3), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS iso
       FROM unnest($1::text[]) AS v`,
      [samples],
    );
    for (const { t, iso } of rows) expect(t.toISOString()).toBe(iso);
  });
});
