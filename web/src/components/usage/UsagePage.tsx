// /usage: the tenant's spend over the last days, per day and model (Query.usage), as a chart and
// a table, with the same figures as CSV (GET /api/usage.csv).
import { useState } from "react";
import { useQuery } from "urql";
import { loadSavedApiKey } from "../../lib/saved-api-key.js";
import { download } from "../../lib/download.js";
import { UsageByDayAndModelDocument } from "../../lib/usage-operations.js";
import { modelName, UsageChart } from "./UsageChart.js";
import { formatCost, formatTokens } from "./usage-format.js";

const PERIODS = [7, 30, 90];
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

export function UsagePage() {
  const [days, setDays] = useState(30);
  const [measure, setMeasure] = useState<"cost" | "totalTokens">("cost");
  const from = dayOf(new Date(Date.now() - (days - 1) * 86_400_000));
  const [{ data, error }] = useQuery({ query: UsageByDayAndModelDocument, variables: { from } });
  const report = data?.usage;
  const rows = (report?.rows ?? []).map((row) => ({ ...row, ...row.usage }));

  async function downloadCsv() {
    const key = loadSavedApiKey();
    const response = await fetch(`/api/usage.csv?groupBy=day,model,key&from=${from}`, {
      headers: key ? { authorization: `Bearer ${key}` } : {},
    });
    download(`usage-${from}.csv`, await response.text(), "text/csv");
  }

  return (
    <section className="usage-page" data-testid="usage-page">
      <header className="dialog-header">
        <h1>Usage</h1>
        <p className="dialog-header-meta">
          {PERIODS.map((n) => (
            <button key={n} type="button" aria-pressed={n === days} onClick={() => setDays(n)}>
              last {n} days
            </button>
          ))}
          <button type="button" onClick={() => setMeasure(measure === "cost" ? "totalTokens" : "cost")}>
            show {measure === "cost" ? "tokens" : "cost"}
          </button>
          <button type="button" onClick={() => void downloadCsv()}>
            CSV
          </button>
        </p>
      </header>
      {error && <p className="error pad">{error.message}</p>}
      {report && (
        <>
          <p className="usage-totals" data-testid="usage-total">
            {formatTokens(report.total.totalTokens)} tokens ({formatTokens(report.total.inputTokens)} in,{" "}
            {formatTokens(report.total.outputTokens)} out) · {formatCost(report.total.cost, report.currency)}
          </p>
          <UsageChart rows={rows} measure={measure} currency={report.currency} />
          <table className="usage-table">
            <thead>
              <tr>
                <th>day</th>
                <th>model</th>
                <th>responses</th>
                <th>tokens</th>
                <th>cost</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={`${row.day}/${row.model}`} data-testid="usage-row">
                  <td>{row.day}</td>
                  <td>{modelName(row.model)}</td>
                  <td>{row.responses}</td>
                  <td>{formatTokens(row.totalTokens)}</td>
                  <td
                    title={row.unpricedTokens ? `${row.unpricedTokens} tokens of a model without a price` : undefined}
                  >
                    {formatCost(row.cost, report.currency)}
                    {row.unpricedTokens > 0 && " *"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
