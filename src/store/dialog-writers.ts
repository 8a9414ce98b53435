// Writers to one dialog take turns on its row lock (SELECT … FOR UPDATE): only one writes, the
// others wait in PostgreSQL, each holding a pool connection while it waits. Twelve writers to one
// dialog whose lock is held (a slow transaction, an operator's session, an instance cut off
// mid-transaction) would hold twelve connections of a pool of ten, and every other request on the
// instance — other tenants' included — would wait for a connection. So at most `atOnce` writes of
// one dialog hold a connection (one writing, the next one ready); the others wait here, in memory,
// for at most `waitMs` (the lock timeout: they would fail at the lock anyway) and then fail as
// UNAVAILABLE, so the client retries later.
export interface DialogWriters {
  /** Runs `work` (one write transaction or statement on `dialogId`) once its turn comes. */
  run<T>(dialogId: string, work: () => Promise<T>): Promise<T>;
}

/** The refusal of a writer that waited its whole turn: recognised as UNAVAILABLE (src/db/unavailable.ts). */
export class DialogBusyError extends Error {
  readonly code = "55P03"; // lock_not_available
  constructor(waitMs: number) {
    super(`the dialog is busy: other writes to it did not finish within ${waitMs} ms`);
  }
}

export function createDialogWriters(options: { atOnce: number; waitMs: number }): DialogWriters {
  const lines = new Map<string, { running: number; waiting: (() => void)[] }>();

  const enter = (dialogId: string): Promise<void> => {
    let line = lines.get(dialogId);
    if (!line) lines.set(dialogId, (line = { running: 0, waiting: [] }));
    if (line.running < options.atOnce) {
      line.running++;
      return Promise.resolve();
    }
    const waiting = line.waiting;
    return new Promise<void>((resolve, reject) => {
      const admit = () => {
        clearTimeout(timer);
        resolve();
      };
      // A wait of 0 ms (DATABASE_LOCK_TIMEOUT_MS=0, no lock timeout) waits as long as it takes.
      const timer = options.waitMs
        ? setTimeout(() => {
            waiting.splice(waiting.indexOf(admit), 1);
            reject(new DialogBusyError(options.waitMs));
          }, options.waitMs)
        : undefined;
      waiting.push(admit);
    });
  };

  const leave = (dialogId: string) => {
    const line = lines.get(dialogId)!;
    const next = line.waiting.shift();
    if (next) return next(); // its place passes on: `running` stays
    if (--line.running === 0) lines.delete(dialogId);
  };

  return {
    async run(dialogId, work) {
      await enter(dialogId);
      try {
        return await work();
      } finally {
        leave(dialogId);
      }
    },
  };
}
