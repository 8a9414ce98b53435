// Share a dialog: a read-only link (the whole dialog as it grows, or the branch on screen), with an
// optional expiry; the links that still open, each copyable and revocable.
import { useMemo, useState } from "react";
import { useClient, useQuery } from "urql";
import { useRoute } from "../../hooks/use-route.js";
import { CreateShareLinkDocument, RevokeShareLinkDocument, ShareLinksDocument } from "../../lib/chat-operations.js";
import { readableError } from "../../lib/readable-error.js";
import { Problem } from "../chat/Problem.js";

const EXPIRIES: [label: string, hours: number | null][] = [
  ["never expires", null],
  ["expires in 1 hour", 1],
  ["expires in 1 day", 24],
  ["expires in 1 week", 24 * 7],
];

export function SharePanel({ dialogId }: { dialogId: string }) {
  const client = useClient();
  const { responseId } = useRoute();
  const [version, setVersion] = useState(0);
  const context = useMemo(() => ({ requestPolicy: "network-only" as const, version }), [version]);
  const [{ data }] = useQuery({ query: ShareLinksDocument, variables: { id: dialogId }, context });
  const [hours, setHours] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const links = data?.dialog?.shareLinks ?? [];

  const create = async () => {
    setProblem(null);
    const expiresAt = hours ? new Date(Date.now() + hours * 3_600_000).toISOString() : null;
    const result = await client
      .mutation(CreateShareLinkDocument, { input: { dialogId, responseId, expiresAt } })
      .toPromise();
    const answer = result.data?.createShareLink;
    if (answer?.__typename !== "ShareLink") return setProblem(readableError(result.error ?? answer));
    setVersion((v) => v + 1);
  };
  const revoke = async (token: string) => {
    const result = await client.mutation(RevokeShareLinkDocument, { token }).toPromise();
    if (result.data?.revokeShareLink.__typename !== "ShareLink")
      return setProblem(readableError(result.error ?? result.data?.revokeShareLink));
    setVersion((v) => v + 1);
  };

  return (
    <details className="share-panel" data-testid="share-panel">
      <summary>Share{links.length ? ` (${links.length} link${links.length === 1 ? "" : "s"})` : ""}</summary>
      <p className="muted">
        Anyone with the link reads {responseId ? "this branch" : "this dialog, live as it grows"} — nothing else, and
        they cannot write.
      </p>
      <p className="share-create">
        <select
          value={hours ?? ""}
          onChange={(e) => setHours(e.target.value ? Number(e.target.value) : null)}
          aria-label="Expiry"
        >
          {EXPIRIES.map(([label, value]) => (
            <option key={label} value={value ?? ""}>
              {label}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void create()} data-testid="create-share-link">
          Create a read-only link
        </button>
      </p>
      <ul className="share-links">
        {links.map((link) => {
          const url = `${window.location.origin}${link.path}`;
          return (
            <li key={link.token} data-testid="share-link">
              <input readOnly value={url} onFocus={(e) => e.target.select()} aria-label="Share link" />
              <span className="muted">
                {link.responseId ? "branch" : "whole dialog"}
                {link.expiresAt ? ` · until ${new Date(link.expiresAt).toLocaleString()}` : ""}
              </span>
              <button type="button" onClick={() => void navigator.clipboard?.writeText(url)}>
                Copy
              </button>
              <button
                type="button"
                className="danger"
                onClick={() => void revoke(link.token)}
                data-testid="revoke-share-link"
              >
                Revoke
              </button>
            </li>
          );
        })}
      </ul>
      {problem && <Problem message={problem} />}
    </details>
  );
}
