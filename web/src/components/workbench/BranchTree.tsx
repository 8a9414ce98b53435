// The dialog's branches as a readable list: for each, where it forks from the others, its first
// words and its length, a link to read it, and a pick to compare two side by side.
import { useState } from "react";
import { useQuery } from "urql";
import type { DialogDetailsQuery } from "../../../../src/client/index.js";
import { comparePath, dialogPath, navigate } from "../../hooks/use-route.js";
import { plural } from "../../lib/format.js";
import { BranchOutlineDocument } from "../../lib/operations.js";
import { Link } from "../Link.js";
import { StatusBadge } from "../StatusBadge.js";

type Leaf = NonNullable<DialogDetailsQuery["dialog"]>["branches"][number];

interface Props {
  dialogId: string;
  headId: string | null;
  leaves: readonly Leaf[];
  /** The response on screen, when a branch is pinned. */
  currentTip: string | null;
}

export function BranchTree({ dialogId, headId, leaves, currentTip }: Props) {
  const [picked, setPicked] = useState<string[]>([]);
  if (leaves.length < 2) return null;
  const toggle = (id: string) =>
    setPicked((now) => (now.includes(id) ? now.filter((p) => p !== id) : [...now.slice(-1), id]));
  const pair = picked.length === 2 ? picked : leaves.length === 2 ? leaves.map((leaf) => leaf.id) : null;
  return (
    <details className="branch-tree" data-testid="branch-tree" open>
      <summary>
        {leaves.length} branches
        <button
          type="button"
          disabled={!pair}
          onClick={(e) => {
            e.preventDefault();
            if (pair) navigate(comparePath(dialogId, pair[0]!, pair[1]!));
          }}
          data-testid="compare-branches"
          title={pair ? "Compare the two branches side by side" : "Pick two branches to compare"}
        >
          Compare side by side
        </button>
      </summary>
      <ol>
        {leaves.map((leaf, index) => {
          // Each branch is outlined against the head's (the head's own against another branch).
          const other = leaf.id === headId ? leaves.find((l) => l.id !== leaf.id)!.id : (headId ?? leaves[0]!.id);
          const current = (currentTip ?? headId) === leaf.id;
          return (
            <BranchRow
              key={leaf.id}
              leaf={leaf}
              other={other}
              number={index + 1}
              href={dialogPath(dialogId, leaf.id === headId ? null : leaf.id)}
              current={current}
              isHead={leaf.id === headId}
              picked={picked.includes(leaf.id)}
              onPick={() => toggle(leaf.id)}
            />
          );
        })}
      </ol>
    </details>
  );
}

interface RowProps {
  leaf: Leaf;
  other: string;
  number: number;
  href: string;
  current: boolean;
  isHead: boolean;
  picked: boolean;
  onPick: () => void;
}

function BranchRow({ leaf, other, number, href, current, isHead, picked, onPick }: RowProps) {
  const [{ data }] = useQuery({ query: BranchOutlineDocument, variables: { a: other, b: leaf.id } });
  const outline = data?.compareBranches;
  const forkTurn = outline?.commonAncestor ? outline.commonAncestor.depth + 1 : null;
  return (
    <li className={current ? "branch-row current" : "branch-row"} data-testid="branch-row" data-branch-id={leaf.id}>
      <input type="checkbox" checked={picked} onChange={onPick} aria-label={`Pick branch ${number} to compare`} />
      <Link href={href} aria-current={current ? "true" : undefined} className="branch-link">
        <span className="branch-words">{outline?.b.preview ?? (outline ? "(no text)" : "…")}</span>
      </Link>
      <span className="branch-facts muted">
        {forkTurn != null ? `forks after turn ${forkTurn}` : outline ? "from the start" : ""}
        {outline && ` · ${plural(outline.b.eventCount, "event")}${forkTurn != null ? " after the fork" : ""}`}
        {` · ${plural(leaf.depth + 1, "turn")}`}
        {leaf.model && ` · ${leaf.model}`}
      </span>
      <StatusBadge status={leaf.status} />
      {isHead && <span className="tag">latest</span>}
    </li>
  );
}
