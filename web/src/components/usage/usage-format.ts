// How the usage views write figures.
const tokens = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });

export const formatTokens = (n: number) => tokens.format(n);

/** Dollars with enough digits for the small amounts one turn costs. */
export function formatCost(amount: number, currency = "USD") {
  const digits = amount !== 0 && Math.abs(amount) < 0.01 ? 4 : 2;
  return new Intl.NumberFormat("en", {
    style: "currency",
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(amount);
}
