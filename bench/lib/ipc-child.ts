// A child process the parent talks to over IPC (load generators that need to be told when).
import { type ChildProcess, spawn } from "node:child_process";

export interface IpcChild {
  process: ChildProcess;
  /** Resolves with the next message of `type`. */
  next<T = Record<string, unknown>>(type: string): Promise<T>;
  send(message: Record<string, unknown>): void;
}

export function spawnIpcChild(file: string, env: Record<string, string>): IpcChild {
  const child = spawn(process.execPath, ["--import", "tsx", file], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const waiting = new Map<string, (message: any) => void>();
  const early = new Map<string, any>();
  child.on("message", (message: any) => {
    const resolve = waiting.get(message.type);
    if (resolve) {
      waiting.delete(message.type);
      resolve(message);
    } else early.set(message.type, message);
  });
  return {
    process: child,
    next: (type) =>
      new Promise((resolve, reject) => {
        if (early.has(type)) {
          resolve(early.get(type));
          early.delete(type);
          return;
        }
        const exited = (code: number | null) => reject(new Error(`${file} exited with ${code} before sending ${type}`));
        child.once("exit", exited);
        waiting.set(type, (message) => {
          child.off("exit", exited);
          resolve(message);
        });
      }),
    send: (message) => child.send(message),
  };
}
