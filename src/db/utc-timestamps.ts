// `timestamp` columns hold UTC wall-clock times (Prisma's convention); both drivers would read
// them as local time, so statements sent outside Prisma parse them with this.
export const TIMESTAMP_OID = 1114;

/** "2026-11-22 05:40:54.123" (PostgreSQL's text form) as UTC; field by field, a history of 10,000
 * events reads 10,000 of them and parsing the string as a whole cost ten times as much. */
export function parseUtcTimestamp(text: string) {
  const year = +text.slice(0, 4);
  // Date.UTC reads years below 100 as 19xx; those, and anything unusual (BC, infinity), take the slow path.
  if (text.length < 19 || text[4] !== "-" || text[10] !== " " || !(year >= 100)) {
    return new Date(`${text.replace(" ", "T")}Z`);
  }
  const fraction = text.length > 20 ? Number(text.slice(20, 23).padEnd(3, "0")) : 0;
  return new Date(
    Date.UTC(
      year,
      +text.slice(5, 7) - 1,
      +text.slice(8, 10),
      +text.slice(11, 13),
      +text.slice(14, 16),
      +text.slice(17, 19),
      fraction,
    ),
  );
}
