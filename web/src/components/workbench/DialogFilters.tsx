// Above the dialog list: narrow it by model, status and creation date, and pick its order.
import type { DialogOrder, ResponseStatus, SearchFilter } from "../../../../src/client/index.js";

const STATUSES: ResponseStatus[] = ["IN_PROGRESS", "COMPLETED", "FAILED", "INCOMPLETE", "CANCELLED"];

export interface ListControls {
  model: string;
  status: ResponseStatus | "";
  from: string;
  to: string;
  orderBy: DialogOrder;
}

export const defaultControls: ListControls = { model: "", status: "", from: "", to: "", orderBy: "NEWEST" };

/** The controls as the API's filter (dates are whole days, in the viewer's time zone). */
export function filterOf(controls: ListControls): SearchFilter {
  const filter: SearchFilter = {};
  if (controls.model.trim()) filter.models = [controls.model.trim()];
  if (controls.status) filter.statuses = [controls.status];
  if (controls.from) filter.createdAfter = new Date(`${controls.from}T00:00:00`).toISOString();
  if (controls.to)
    filter.createdBefore = new Date(new Date(`${controls.to}T00:00:00`).getTime() + 86_400_000).toISOString();
  return filter;
}

export function DialogFilters({ value, onChange }: { value: ListControls; onChange: (next: ListControls) => void }) {
  const set =
    <K extends keyof ListControls>(key: K) =>
    (next: ListControls[K]) =>
      onChange({ ...value, [key]: next });
  return (
    <fieldset className="dialog-filters" data-testid="dialog-filters">
      <input
        aria-label="Model"
        placeholder="model"
        value={value.model}
        onChange={(e) => set("model")(e.target.value)}
        data-testid="filter-model"
      />
      <select
        aria-label="Status"
        value={value.status}
        onChange={(e) => set("status")(e.target.value as ResponseStatus | "")}
        data-testid="filter-status"
      >
        <option value="">any status</option>
        {STATUSES.map((status) => (
          <option key={status} value={status}>
            {status.toLowerCase().replace("_", " ")}
          </option>
        ))}
      </select>
      <label>
        from{" "}
        <input type="date" value={value.from} onChange={(e) => set("from")(e.target.value)} data-testid="filter-from" />
      </label>
      <label>
        to <input type="date" value={value.to} onChange={(e) => set("to")(e.target.value)} data-testid="filter-to" />
      </label>
      <select aria-label="Order" value={value.orderBy} onChange={(e) => set("orderBy")(e.target.value as DialogOrder)}>
        <option value="NEWEST">newest</option>
        <option value="RECENTLY_UPDATED">recently updated</option>
        <option value="OLDEST">oldest</option>
      </select>
    </fieldset>
  );
}
