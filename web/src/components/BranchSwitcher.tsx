// Shown where the dialog branches: one link per sibling response, named by its first words, leading
// to where that branch ends now (or back to following the head, for the head's own branch).
import { dialogPath } from "../hooks/use-route.js";
import { type BranchTree, latestLeafUnder } from "../lib/branch-tree.js";
import { Link } from "./Link.js";

interface Props {
  dialogId: string;
  currentId: string;
  siblings: readonly { id: string; model: string | null; createdAt: string; preview?: string | null }[];
  tree: BranchTree;
  headId: string | null;
}

export function BranchSwitcher({ dialogId, currentId, siblings, tree, headId }: Props) {
  const index = siblings.findIndex((sibling) => sibling.id === currentId);
  return (
    <nav className="branch-switcher" data-testid="branch-switcher" aria-label="Branches">
      <span>
        branch {index + 1} of {siblings.length}
      </span>
      {siblings.map((sibling, i) => {
        // The first answer is the original; a later one asking what an earlier one asked was
        // regenerated (from the original or from an edit), one asking anything else came from an
        // edit. (A fork is a dialog of its own.)
        const how =
          i === 0
            ? "original"
            : siblings.slice(0, i).some((s) => s.preview === sibling.preview)
              ? "regenerated"
              : "edited";
        const leaf = latestLeafUnder(tree, sibling.id);
        const current = sibling.id === currentId;
        return (
          <Link
            key={sibling.id}
            href={dialogPath(dialogId, leaf === headId ? null : leaf)}
            className={current ? "branch current" : "branch"}
            aria-current={current ? "true" : undefined}
            data-branch-id={sibling.id}
            data-branch-kind={how}
            title={`${sibling.id}${sibling.model ? ` · ${sibling.model}` : ""}`}
          >
            <span className="branch-number">{i + 1}</span>
            <span className={`branch-kind branch-${how}`}>{how}</span>
            {sibling.preview && <span className="branch-preview">{shorten(sibling.preview)}</span>}
          </Link>
        );
      })}
    </nav>
  );
}

const shorten = (text: string) => (text.length > 32 ? `${text.slice(0, 31)}…` : text);
