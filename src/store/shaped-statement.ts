// A statement whose text depends only on a few choices (its shape), not on its values: built once
// per shape, then each call only puts its values in order. Building the text of a large statement
// again for every call (dozens of nested Prisma.sql pieces joined into a new string) and then
// hashing that new string for its prepared statement's name (src/db/postgres-database.ts) cost the
// commonest write a tenth of a millisecond of the server's CPU; the same string object each time
// also finds its name without hashing again.
//
// `build` receives the shape and `p`, stand-ins for the values with the same names: it places
// them as parameters (`${p.turnId}`), exactly as it would place the values. It must not compute
// with them or branch on them (a stand-in is no value); the shape says which pieces to write, and
// anything derived from values is computed by the caller into the values record.
import type { Prisma } from "../generated/prisma/client.js";

const PATH = Symbol("parameter path");

/** A parameter's stand-in: where in the values record its value is. */
export interface Slot {
  readonly [PATH]: readonly string[];
}

/** The stand-ins for a values record: a stand-in for every value, nested records as records of them. */
export type Slots<V> = {
  readonly [K in keyof V]-?: NonNullable<V[K]> extends readonly unknown[] | Date
    ? Slot
    : NonNullable<V[K]> extends object
      ? Slots<NonNullable<V[K]>>
      : Slot;
};

function slots(path: readonly string[]): unknown {
  return new Proxy(
    { [PATH]: path },
    {
      get: (target, key) => (key === PATH ? target[PATH] : typeof key === "string" ? slots([...path, key]) : undefined),
    },
  );
}

/** The value at `path` of a record. */
const valueAt = (path: readonly string[]) => (values: unknown) =>
  path.reduce<unknown>((at, key) => (at as Record<string, unknown> | null | undefined)?.[key], values);

function pathOf(slot: unknown) {
  const path = (slot as Partial<Slot> | null)?.[PATH];
  if (!path) throw new Error(`a shaped statement's parameter is not one of its values' stand-ins: ${String(slot)}`);
  return path;
}

export interface ShapedStatement {
  text: string;
  values: unknown[];
}

/**
 * The statement for `shape` with `values`: its text made once per shape key (`keyOf(shape)`), its
 * parameters read from `values` in the order the text numbers them.
 */
export function statementPerShape<Shape, Values>(
  keyOf: (shape: Shape) => string | number,
  build: (shape: Shape, p: Slots<Values>) => Prisma.Sql,
) {
  const made = new Map<string | number, { text: string; readers: ((values: Values) => unknown)[] }>();
  return (shape: Shape, values: Values): ShapedStatement => {
    const key = keyOf(shape);
    let statement = made.get(key);
    if (!statement) {
      const sql = build(shape, slots([]) as Slots<Values>);
      statement = { text: sql.text, readers: sql.values.map((slot) => valueAt(pathOf(slot))) };
      made.set(key, statement);
    }
    return { text: statement.text, values: statement.readers.map((read) => read(values)) };
  };
}
