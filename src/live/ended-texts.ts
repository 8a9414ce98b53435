// Which in-flight texts of a dialog's responses are over, as its committed writes show them: below
// which part a response's text is committed or dropped (Infinity once the response finished). A
// text delta of such a part that arrives late is dropped by every subscriber, since the committed
// write carries the text.
//
// One registry per dialog per instance, kept as its payloads are handed to its listeners
// (src/live/live-bus.ts), rather than one per subscriber: every subscriber receives the same live
// payloads, and keeping the same map for each of a hundred subscribers of a busy dialog was a
// fifth of what delivering a delta to them cost (bench/soak.ts). Knowing of a commit a moment
// before a subscriber has processed it only drops text that commit carries. A subscriber keeps
// its own registry beside this one for what it reads itself (replays, clears, deletions:
// src/live/text-positions.ts).
import type { ResponseStatus } from "../generated/prisma/enums.js";

/** What a committed write says about its response's text. */
export interface CommitOfText {
  responseId: string;
  status: ResponseStatus;
  /** The write committed or dropped the in-flight text of this part. */
  endsTextPart?: number;
}

// A text delta arrives within moments of its response's writes, not a thousand writes later, and a
// busy dialog sees thousands of writes a minute: only the latest are kept.
const MAX_ENDED = 1_000;

export class EndedTexts {
  readonly #endedBelow = new Map<string, number>();

  /** The first part of `responseId` whose text is not over (0 when nothing is known). */
  below(responseId: string): number {
    return this.#endedBelow.get(responseId) ?? 0;
  }

  /** A committed write; returns the part below which its response's text is now over. */
  onCommitted(commit: CommitOfText, atLeast = 0): number {
    let endedBelow = commit.endsTextPart == null ? 0 : commit.endsTextPart + 1;
    if (commit.status !== "IN_PROGRESS") endedBelow = Infinity;
    endedBelow = Math.max(endedBelow, atLeast);
    const known = this.below(commit.responseId);
    if (endedBelow <= known) return known;
    this.end(commit.responseId, endedBelow);
    return endedBelow;
  }

  /** `responseId`'s text is over below `part`. */
  end(responseId: string, part: number) {
    // Re-inserted, so the Map's order stays oldest first, and the oldest goes past the bound.
    this.#endedBelow.delete(responseId);
    this.#endedBelow.set(responseId, part);
    if (this.#endedBelow.size > MAX_ENDED) this.#endedBelow.delete(this.#endedBelow.keys().next().value!);
  }

  responses() {
    return this.#endedBelow.keys();
  }
}
