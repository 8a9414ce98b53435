// What a write takes (writeDialog, src/store/locked-dialog.ts): an existing dialog to lock, or a
// new one to create, and the dialog as the write holds it.
import type { ResponseForWrite } from "./response-for-write.js";

export type DialogTarget =
  /**
   * An existing dialog, locked; `whenMissing`/`whenExpired` say what the caller asked for;
   * `withResponse`: the response of it the write will read first (readResponse), read with the lock,
   * and the only response it changes: its delta's rows come back with the write (DialogWriteOutcome).
   */
  | {
      id: string;
      whenMissing?: () => Error;
      whenExpired?: () => Error;
      withResponse?: { id: string; forEnd: boolean };
    }
  /** A new, empty dialog. */
  | { create: NewDialog };

export interface NewDialog {
  id: string;
  tenantId: string;
  title?: string | null;
  metadata?: Record<string, unknown>;
  forkedFromId?: string | null;
  /** An imported dialog's source ("chatgpt:<id>"), unique per tenant. */
  importKey?: string | null;
  /** When it was made, if not now: an imported conversation's own time. */
  createdAt?: Date | null;
}

export interface LockedDialog {
  id: string;
  tenantId: string;
  lastSeq: number;
  headId: string | null;
  headDepth: number | null;
  updatedAt: Date;
  /**
   * The response the target asked for (`withResponse`), read by the statement that took the lock
   * and as it is under the lock; absent when it could not be (see lockDialog).
   */
  peeked?: { id: string; row: ResponseForWrite | null };
}
