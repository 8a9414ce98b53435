// Stored items by id: `item_reference` input items (the AI SDK's Responses provider sends earlier
// answers back this way when `store` is on) and the Conversations API's items. An item id is
// either an output item id of a generated turn (`msg_…_N`, `rs_…_N`, `fc_…_N`: the Nth output
// item of `resp_…`, as src/generation/output-items.ts derives them) or an event id (`evt_…`,
// every other stored item). Only the caller's tenant's items are found; another tenant's id is
// "not found", exactly like one that does not exist.
import type { Event } from "../generated/prisma/client.js";
import { toResponsesItems } from "../formats/openai-responses.js";
import { outputItemIdOfEvent } from "../generation/output-items.js";
import type { Store } from "../store/store.js";
import { InvalidRequest } from "./invalid-request.js";

const derivedId = /^(?:msg|rs|fc)_(.+)_(\d+)$/;

/** The response an output item id names, or null for an event id. */
export function responseOfItemId(id: string) {
  const match = derivedId.exec(id);
  return match ? `resp_${match[1]}` : null;
}

/** Events by item id (derived output ids and event ids), limited to the tenant's dialogs. */
export async function findItemEvents({ prisma }: Store, tenantId: string, ids: readonly string[]) {
  const responseIds = [...new Set(ids.map(responseOfItemId).filter((id): id is string => id != null))];
  const eventIds = ids.filter((id) => responseOfItemId(id) == null);
  const owned = { response: { dialog: { tenantId } } };
  const [outputs, events] = await Promise.all([
    responseIds.length
      ? prisma.event.findMany({
          where: { responseId: { in: responseIds }, phase: "OUTPUT", ...owned },
          orderBy: { seq: "asc" },
        })
      : [],
    eventIds.length ? prisma.event.findMany({ where: { id: { in: eventIds }, ...owned } }) : [],
  ]);
  const found = new Map<string, Event>(events.map((event) => [event.id, event]));
  for (const [itemId, event] of withItemIds(outputs)) found.set(itemId, event);
  return found;
}

/** Each event with the id the Responses API shows for it (events in seq order, grouped by response). */
export function withItemIds(events: readonly Event[]): [string, Event][] {
  const modelItems = new Map<string, number>();
  return events.map((event) => {
    if (event.phase !== "OUTPUT") return [event.id, event];
    const index = modelItems.get(event.responseId) ?? 0;
    const id = outputItemIdOfEvent(event, index);
    if (id) modelItems.set(event.responseId, index + 1);
    return [id ?? event.id, event];
  });
}

/** A stored event as a Responses input item (a model's reasoning included, as reasoning_text). */
export function inputItemOf(event: Event): Record<string, unknown> {
  const [item] = toResponsesItems([event]);
  if (item) return item as unknown as Record<string, unknown>;
  // Reasoning not imported in this format has no API id of its own: give it its event's.
  return {
    type: "reasoning",
    id: event.id,
    summary: [],
    content: [{ type: "reasoning_text", text: event.content ?? "" }],
  };
}

const isReference = (item: unknown): item is { id: string } =>
  typeof item === "object" &&
  item !== null &&
  (item as { type?: unknown }).type === "item_reference" &&
  typeof (item as { id?: unknown }).id === "string";

/**
 * The input with every `item_reference` replaced by the stored item it names; an id the caller's
 * tenant has no item for is a 400 naming it, as OpenAI answers.
 */
export async function resolveItemReferences(store: Store, tenantId: string, input: unknown): Promise<unknown> {
  if (!Array.isArray(input)) return input;
  const ids = input.filter(isReference).map((item) => item.id);
  if (!ids.length) return input;
  const found = await findItemEvents(store, tenantId, ids);
  return input.map((item, index) => {
    if (!isReference(item)) return item;
    const event = found.get(item.id);
    if (!event) throw new InvalidRequest(`Item with id '${item.id}' not found.`, `input[${index}]`);
    return inputItemOf(event);
  });
}
