// Spend per day, a bar per day stacked by model: plain SVG, no chart library.
import { formatCost, formatTokens } from "./usage-format.js";

export interface DayModelRow {
  day: string | null;
  model: string | null;
  cost: number;
  totalTokens: number;
}

interface Props {
  rows: DayModelRow[];
  /** What the bars measure. */
  measure: "cost" | "totalTokens";
  currency: string;
}

const PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f"];
const WIDTH = 640;
const HEIGHT = 180;

export const modelName = (model: string | null) => model ?? "(no model)";

export function UsageChart({ rows, measure, currency }: Props) {
  const days = [...new Set(rows.map((row) => row.day ?? ""))].sort();
  const models = [...new Set(rows.map((row) => modelName(row.model)))].sort();
  const colour = (model: string) => PALETTE[models.indexOf(model) % PALETTE.length]!;
  const perDay = days.map((day) => rows.filter((row) => (row.day ?? "") === day));
  const highest = Math.max(0, ...perDay.map((dayRows) => dayRows.reduce((sum, row) => sum + row[measure], 0)));
  if (!days.length || highest === 0) return <p className="muted">Nothing spent in this period.</p>;
  const slot = WIDTH / days.length;
  const label = (value: number) => (measure === "cost" ? formatCost(value, currency) : formatTokens(value));
  return (
    <figure className="usage-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + 20}`} role="img" aria-label={`${measure} per day and model`}>
        {perDay.map((dayRows, i) => {
          let top = HEIGHT;
          return (
            <g key={days[i]} data-testid="usage-day">
              {dayRows.map((row) => {
                const height = (row[measure] / highest) * HEIGHT;
                top -= height;
                return (
                  <rect
                    key={modelName(row.model)}
                    x={i * slot + slot * 0.15}
                    y={top}
                    width={slot * 0.7}
                    height={height}
                    fill={colour(modelName(row.model))}
                  >
                    <title>{`${days[i]} · ${modelName(row.model)}: ${label(row[measure])}`}</title>
                  </rect>
                );
              })}
              {(days.length <= 14 || i % Math.ceil(days.length / 14) === 0) && (
                <text x={i * slot + slot / 2} y={HEIGHT + 14} textAnchor="middle" fontSize="10">
                  {days[i]!.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="usage-legend">
        {models.map((model) => (
          <span key={model}>
            <i style={{ background: colour(model) }} /> {model}
          </span>
        ))}
        <span className="muted">highest day: {label(highest)}</span>
      </figcaption>
    </figure>
  );
}
