// A dialog's responses as a tree, for the branch switcher: which responses are siblings (they
// continue the same response), and which leaf a branch leads to now.
import type { DialogTreeQuery } from "../../../src/client/index.js";

type ResponseNode = NonNullable<DialogTreeQuery["dialog"]>["responses"]["edges"][number]["node"];

export interface BranchTree {
  byId: ReadonlyMap<string, ResponseNode>;
  /** Children of each response (key null: the roots), oldest first. */
  children: ReadonlyMap<string | null, ResponseNode[]>;
}

export function buildBranchTree(nodes: readonly ResponseNode[]): BranchTree {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const children = new Map<string | null, ResponseNode[]>();
  for (const node of nodes) {
    const parentId = node.previousResponse?.id ?? null;
    children.set(parentId, [...(children.get(parentId) ?? []), node]);
  }
  return { byId, children };
}

/** The responses that continue the same response as `responseId` (itself included). */
export function siblingsOf(tree: BranchTree, responseId: string): ResponseNode[] {
  const node = tree.byId.get(responseId);
  if (!node) return [];
  return tree.children.get(node.previousResponse?.id ?? null) ?? [node];
}

/** Where a branch ends now: from `responseId`, always the newest continuation. */
export function latestLeafUnder(tree: BranchTree, responseId: string): string {
  let id = responseId;
  // Bounded by the tree's size, whatever its shape.
  for (let steps = 0; steps <= tree.byId.size; steps++) {
    const next = tree.children.get(id)?.at(-1);
    if (!next) break;
    id = next.id;
  }
  return id;
}
