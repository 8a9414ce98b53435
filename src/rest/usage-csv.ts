// GET /api/usage.csv: Query.usage as CSV for spreadsheets and billing scripts (docs/usage.md).
// `?groupBy=model,day,key,tenant&from=YYYY-MM-DD&to=YYYY-MM-DD&model=…&key=…` (model and key may
// repeat); the caller's tenant only, as in GraphQL.
import { ValidationError } from "../errors.js";
import { type UsageGroup, usageCsv, usageGroups, usageReport } from "../services/usage.js";
import type { Store } from "../store/store.js";
import { json } from "./history-endpoint.js";

export async function handleUsageCsv(store: Store, url: URL, tenantId: string): Promise<Response> {
  const params = url.searchParams;
  const groupBy = (params.get("groupBy") ?? "")
    .split(",")
    .filter(Boolean)
    .map((group) => group.trim().toUpperCase());
  const unknown = groupBy.filter((group) => !usageGroups.includes(group as UsageGroup));
  if (unknown.length) {
    return json(400, {
      detail: `groupBy: unknown ${unknown.join(", ")} (use ${usageGroups.join(", ").toLowerCase()})`,
    });
  }
  try {
    const rows = await usageReport(store.database, {
      tenantId,
      groupBy: groupBy as UsageGroup[],
      from: params.get("from"),
      to: params.get("to"),
      models: params.getAll("model"),
      apiKeyIds: params.getAll("key"),
    });
    return new Response(usageCsv(rows), {
      status: 200,
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": 'attachment; filename="usage.csv"',
      },
    });
  } catch (error) {
    if (error instanceof ValidationError)
      return json(400, { detail: `${error.fieldErrors[0]?.path.join(".")}: ${error.fieldErrors[0]?.message}` });
    throw error;
  }
}
