// JSON values arriving through GraphQL's JSON scalar, checked before they reach a JSON column.
import type { FieldError } from "../errors.js";
import { Prisma } from "../generated/prisma/client.js";

export type Json = unknown;

export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A metadata-like field: absent means {}, anything but an object is reported at `path`. */
export function jsonObject(value: Json, path: string[], errors: FieldError[]): Record<string, unknown> {
  if (value == null) return {};
  if (isJsonObject(value)) return value;
  errors.push({ path, message: "must be a JSON object" });
  return {};
}

/** Prisma stores SQL NULL in a nullable JSON column only when told so explicitly. */
export const nullableJson = (value: Json | null | undefined) =>
  value == null ? Prisma.DbNull : (value as Prisma.InputJsonValue);
