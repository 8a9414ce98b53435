// Rows a statement hands back as JSON (`to_jsonb(row)`), turned into what Prisma returns for the
// same model, so a write can answer with the rows it just wrote instead of reading them again.
// JSON has no timestamps: the model's DateTime fields, taken from the generated datamodel so a new
// column cannot be missed, become Dates. PostgreSQL writes `timestamp(3)` without a zone, and
// Prisma stores DateTime as UTC.
import { getDatamodel } from "../generated/pothos-types.js";

type ModelName = "Dialog" | "Response" | "Event";

const datamodel = getDatamodel().datamodel.models;
const dateFields = new Map<string, string[]>(
  Object.entries(datamodel).map(([name, model]) => [
    name,
    model.fields.filter((field) => field.kind === "scalar" && field.type === "DateTime").map((field) => field.name),
  ]),
);

export function rowFromJson(model: ModelName, json: unknown): Record<string, unknown> {
  const row = { ...(json as Record<string, unknown>) };
  for (const field of dateFields.get(model)!) {
    const value = row[field];
    if (typeof value === "string") row[field] = new Date(`${value}Z`);
  }
  return row;
}
