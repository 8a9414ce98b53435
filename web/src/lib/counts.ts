// The server counts a tenant's dialogs and search matches up to COUNT_CAP and answers the cap when
// there are more (src/services/search.ts, docs/api.md): shown as "10,000+", never decremented.
export const COUNT_CAP = 10_000;

/** A totalCount as the viewer shows it. */
export const countText = (count: number) =>
  count >= COUNT_CAP ? `${COUNT_CAP.toLocaleString("en")}+` : count.toLocaleString("en");

/** The count once one of them is gone (at the cap it is still at least the cap). */
export const countAfterRemoval = (count: number) => (count >= COUNT_CAP ? count : count - 1);
