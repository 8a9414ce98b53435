// Chat apps keep a conversation as a tree of messages (each names its parent; an edited question or
// a regenerated answer is a second child). dialogql keeps turns: a response is what the model was
// given and everything it did about it, and siblings are branches. This turns a message tree into
// turns, each naming the turn it continues, in an order a writer can follow: every turn after its
// parent, and the branch the app had open (its current message) last, so it ends up the head.
import { ValidationError } from "../../errors.js";
import type { ImportedEvent } from "../../formats/turns.js";

export interface TreeMessage {
  id: string;
  parentId: string | null;
  events: ImportedEvent[];
  /** The model that wrote it (assistant messages). */
  model: string | null;
}

export interface ConversationTree {
  messages: TreeMessage[];
  /** The message the app showed last; its branch becomes the dialog's head. */
  currentId: string | null;
}

export interface TurnNode {
  /** Unique within the conversation: the ids of the messages in the turn. */
  key: string;
  parentKey: string | null;
  model: string | null;
  input: ImportedEvent[];
  output: ImportedEvent[];
}

interface Partial {
  ids: string[];
  parentKey: string | null;
  model: string | null;
  input: ImportedEvent[];
  output: ImportedEvent[];
  /** Tool calls made on this path so far: a result must answer one of them. */
  calls: ReadonlySet<string>;
}

const isGiven = (item: ImportedEvent) => item.event.type === "HUMAN" || item.event.type === "SYSTEM";

export function turnsOfTree(tree: ConversationTree): TurnNode[] {
  const byId = new Map(tree.messages.map((message) => [message.id, message]));
  const children = new Map<string | null, TreeMessage[]>();
  for (const message of tree.messages) {
    const parent = message.parentId != null && byId.has(message.parentId) ? message.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), message]);
  }
  const onCurrentPath = currentPath(byId, tree.currentId);
  // The current branch's child goes last, so its turns are written last and its leaf is the head.
  const ordered = (list: TreeMessage[]) => [
    ...list.filter((m) => !onCurrentPath.has(m.id)),
    ...list.filter((m) => onCurrentPath.has(m.id)),
  ];

  const turns: TurnNode[] = [];
  const emitted = new Set<string>();
  const emit = (partial: Partial) => {
    if (!partial.input.length && !partial.output.length) return partial.parentKey;
    const key = partial.ids.join("/");
    if (!emitted.has(key)) {
      emitted.add(key);
      turns.push({
        key,
        parentKey: partial.parentKey,
        model: partial.model,
        input: partial.input,
        output: partial.output,
      });
    }
    return key;
  };

  // An explicit stack: a conversation thousands of messages long is a path thousands deep.
  const start: Partial = { ids: [], parentKey: null, model: null, input: [], output: [], calls: new Set() };
  const stack: [TreeMessage, Partial][] = ordered(children.get(null) ?? [])
    .reverse()
    .map((root) => [root, start]);
  while (stack.length) {
    const [message, before] = stack.pop()!;
    let partial = before;
    for (const item of message.events) {
      if (isGiven(item) && partial.output.length) {
        partial = { ids: [], parentKey: emit(partial), model: null, input: [], output: [], calls: partial.calls };
      }
      partial = withEvent(partial, item, message);
    }
    const next = ordered(children.get(message.id) ?? []);
    if (!next.length) emit(partial);
    for (const child of next.reverse()) stack.push([child, partial]);
  }
  return turns;
}

function withEvent(partial: Partial, item: ImportedEvent, message: TreeMessage): Partial {
  const ids = partial.ids.at(-1) === message.id ? partial.ids : [...partial.ids, message.id];
  const { event } = item;
  let calls = partial.calls;
  if (event.type === "TOOL_CALL" && event.callId) calls = new Set([...calls, event.callId]);
  if (event.type === "TOOL_RESULT" && !(event.callId && calls.has(event.callId))) {
    throw ValidationError.at(item.callIdPath ?? item.path, `answers no tool call made before it (${event.callId})`);
  }
  const model = partial.model ?? message.model;
  if (isGiven(item)) return { ...partial, ids, model, calls, input: [...partial.input, item] };
  return { ...partial, ids, model, calls, output: [...partial.output, item] };
}

function currentPath(byId: ReadonlyMap<string, TreeMessage>, currentId: string | null): Set<string> {
  const path = new Set<string>();
  for (let id = currentId; id != null && byId.has(id) && !path.has(id); id = byId.get(id)!.parentId) path.add(id);
  return path;
}
