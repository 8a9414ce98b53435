// The common case of the input-limit check (src/server/input-limits.ts) without its cost: the exact
// check coerces every variable a second time (execution coerces them again) and reads each
// field's arguments, about a tenth of a small write's CPU. Most documents pass their variables
// straight to arguments (`createResponse(input: $input)`); for those the raw variables are walked
// with the argument's type instead, allocating nothing. The walk can only say "certainly nothing
// is beyond its limit": coercion keeps every string and JSON value as sent (lists wrap single
// values, input objects keep their fields, IDs made from numbers stay short), so whatever the walk
// does not find, the exact check would not find either. Anything it flags, and any document it
// cannot read this way (literals mixed with variables, defaults of variables, several
// operations), goes to the exact check, which decides the answer and its message.
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  Kind,
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
} from "graphql";
import { declaredInputLimit, defaultInputLimit, isSizedAsEvent } from "../schema/input-limits.js";

/** An argument or an input field: what holds a value, with the limit it may declare. */
export interface InputHolder {
  type: GraphQLInputType;
  extensions?: Readonly<Record<string, unknown>> | null;
}

/**
 * The limit of the values `holder` holds: its declared one, else its type's default (null for an
 * event's own content, sized as a whole event).
 */
export function inputLimitOf(holder: InputHolder, inEvent: boolean, eventBytes: number): number | null {
  return (
    declaredInputLimit(holder.extensions) ?? defaultInputLimit(getNamedType(holder.type).name, inEvent, eventBytes)
  );
}

/** The arguments of a checked field that take a variable as their whole value: (variable name, argument). */
export type QuickField = [variable: string, argument: GraphQLArgument][];

/**
 * The fields' variable arguments, when every argument that uses a variable is one variable and
 * the document has one operation whose variables have no defaults; null otherwise (the exact
 * check only). `literalsChecked` says a field's other arguments were found within their limits.
 */
export function quickFieldsOf(
  document: DocumentNode,
  fields: { definition: GraphQLField<unknown, unknown>; node: FieldNode; literalsWithin: boolean }[],
): QuickField[] | null {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1 || operations[0]!.variableDefinitions?.some((v) => v.defaultValue)) return null;
  const quick: QuickField[] = [];
  for (const { definition, node, literalsWithin } of fields) {
    if (!literalsWithin) return null;
    const variables: QuickField = [];
    for (const argument of node.arguments ?? []) {
      if (argument.value.kind !== Kind.VARIABLE) continue; // a literal, checked once (literalsWithin)
      const declared = definition.args.find((a) => a.name === argument.name.value);
      if (declared) variables.push([argument.value.name.value, declared]);
    }
    quick.push(variables);
  }
  return quick;
}

/** Whether an argument is a literal with no variable inside (a variable nested in a literal is not quick). */
export function isPlainLiteral(argument: ArgumentNode): boolean {
  let plain = true;
  const walk = (value: ArgumentNode["value"]): void => {
    if (value.kind === Kind.VARIABLE) plain = false;
    else if (value.kind === Kind.LIST) value.values.forEach(walk);
    else if (value.kind === Kind.OBJECT) value.fields.forEach((field) => walk(field.value));
  };
  walk(argument.value);
  return plain;
}

/**
 * The quick walk for an app's MAX_EVENT_BYTES: false when no raw variable passed to `fields` can
 * be beyond its limit; true when the exact check must decide.
 */
export function createQuickWalk(eventBytes: number) {
  // One walker per holder (argument or input field) and place (inside an event or not), made on
  // first use: a request walks closures that already know their types and limits.
  const walkers = [new WeakMap<InputHolder, Walk>(), new WeakMap<InputHolder, Walk>()];
  const walkerOf = (holder: InputHolder, inEvent: boolean): Walk => {
    const made = walkers[inEvent ? 1 : 0]!;
    let walk = made.get(holder);
    if (!walk) made.set(holder, (walk = walkFor(holder.type, holder, inEvent)));
    return walk;
  };
  const walkFor = (type: GraphQLInputType, holder: InputHolder, inEvent: boolean): Walk => {
    const nullable = getNullableType(type);
    if (isListType(nullable)) {
      const item = walkFor(nullable.ofType, holder, inEvent);
      return (value) => (Array.isArray(value) ? value.some(item) : item(value));
    }
    if (isInputObjectType(nullable)) return objectWalk(nullable, inEvent || isSizedAsEvent(nullable.extensions));
    const limit = inputLimitOf(holder, inEvent, eventBytes);
    if (limit === null) return () => false;
    const typeName = getNamedType(type).name;
    if (typeName === "JSON" || typeName === "JSONObject") {
      return (value) =>
        value != null &&
        (typeof value === "string" ? value.length > limit : Buffer.byteLength(JSON.stringify(value)) > limit);
    }
    return (value) => typeof value === "string" && value.length > limit;
  };
  // Its fields' walkers are made when a value first reaches it: an input type may contain itself.
  const objectWalk = (type: GraphQLInputObjectType, inEvent: boolean): Walk => {
    let fields: [string, Walk][] | undefined;
    return (value) => {
      if (value == null || typeof value !== "object") return false; // coercion refuses a non-object
      fields ??= Object.values(type.getFields()).map((field) => [field.name, walkerOf(field, inEvent)]);
      for (const [name, walk] of fields) if (walk((value as Record<string, unknown>)[name])) return true;
      return false;
    };
  };
  return (fields: QuickField[], variables: Record<string, unknown>): boolean => {
    for (const field of fields) {
      for (const [variable, argument] of field) if (walkerOf(argument, false)(variables[variable])) return true;
    }
    return false;
  };
}

/** Whether a raw value, of the walker's type and holder, may be beyond its limit (findOversized's question). */
type Walk = (value: unknown) => boolean;
