// JSON values arriving through GraphQL's JSON scalar, checked before they reach a JSON column.
import type { FieldError } from "../errors.js";
import { isJsonObject, type Json } from "../vocabulary/json.js";

/** A metadata-like field: absent means {}, anything but an object is reported at `path`. */
export function jsonObject(value: Json, path: string[], errors: FieldError[]): Record<string, unknown> {
  if (value == null) return {};
  if (isJsonObject(value)) return value;
  errors.push({ path, message: "must be a JSON object" });
  return {};
}
