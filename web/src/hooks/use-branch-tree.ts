// The dialog's response tree, re-read whenever `version` changes (the viewer passes the history's
// seq and tip, so a new response anywhere shows up in the branch switcher); not before `enabled`.
import { useEffect, useState } from "react";
import { type Client, type OperationResult, useClient } from "urql";
import { DialogTreeDocument, type DialogTreeQuery } from "../../../src/client/index.js";
import { type BranchTree, buildBranchTree } from "../lib/branch-tree.js";

const PAGE = 100;
const MAX_PAGES = 100;

export function useBranchTree(dialogId: string, version: string, enabled = true): BranchTree | null {
  const client = useClient();
  const [tree, setTree] = useState<BranchTree | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let active = true;
    readTree(client, dialogId).then(
      (next) => active && setTree(next),
      // The timeline still works without a switcher; the next version retries.
      (error) => console.warn("could not read the branch tree", error),
    );
    return () => {
      active = false;
    };
  }, [client, dialogId, version, enabled]);
  return tree;
}

async function readTree(client: Client, dialogId: string): Promise<BranchTree> {
  const nodes = [];
  let after: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result: OperationResult<DialogTreeQuery> = await client
      .query(DialogTreeDocument, { id: dialogId, first: PAGE, after }, { requestPolicy: "network-only" })
      .toPromise();
    if (result.error) throw result.error;
    const responses = result.data?.dialog?.responses;
    if (!responses) break;
    nodes.push(...responses.edges.map((edge) => edge.node));
    if (!responses.pageInfo.hasNextPage) break;
    after = responses.pageInfo.endCursor ?? null;
  }
  return buildBranchTree(nodes);
}
