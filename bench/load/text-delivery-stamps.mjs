// Loaded into the other instances of text-stream's second phase with TEXT_STAMPS=1 (through their
// NODE_OPTIONS, before tsx: hence plain JavaScript): for each of the first STAMPS_LIMIT Redis
// messages carrying a text delta, when the instance received it, when its (synchronous) handler —
// the delivery loop over this instance's subscribers — returned, and when the turn's held socket
// writes had been released (src/connections/coalesced-writes.ts: a setImmediate queued after the
// handler runs after theirs), with the main thread's CPU time in each part and the CPU of the
// process's other threads (V8's compiler and GC helpers) since the previous message. Appended
// as JSON lines to $STAMPS_DIR/<pid>.jsonl; the scenario joins them with what the viewers saw.
/* global process, performance, setImmediate */
import { appendFileSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(`${process.cwd()}/package.json`);
const ioredis = require("ioredis");
const Redis = ioredis.default ?? ioredis;
const out = `${process.env.STAMPS_DIR}/${process.pid}.jsonl`;
const LIMIT = Number(process.env.STAMPS_LIMIT ?? 80);
const now = () => performance.timeOrigin + performance.now();
/** The calling thread's CPU time so far, in ms (Linux's scheduler statistics, in ns). */
const threadCpuMs = () => Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;

/** CPU time (ms, to the 10 ms tick) of the main thread and of all others. */
function threadsCpuMs() {
  const cpu = { main: 0, others: 0 };
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      cpu[tid === String(process.pid) ? "main" : "others"] += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // a thread that ended meanwhile
    }
  }
  return cpu;
}

let stamped = 0;
let threadsBefore = threadsCpuMs();
const emit = Redis.prototype.emit;
Redis.prototype.emit = function (event, ...args) {
  const offset = event === "message" && stamped < LIMIT ? /"offset":(\d+)/.exec(args[1]) : null;
  if (!offset) return emit.call(this, event, ...args);
  stamped++;
  const received = now();
  const cpuAtReceived = threadCpuMs();
  const result = emit.call(this, event, ...args);
  const handled = now();
  const cpuAtHandled = threadCpuMs();
  setImmediate(() => {
    const released = now();
    const cpuAtReleased = threadCpuMs();
    const threads = threadsCpuMs();
    const stamp = {
      offset: Number(offset[1]),
      received,
      handled,
      released,
      handlerCpuMs: cpuAtHandled - cpuAtReceived,
      releaseCpuMs: cpuAtReleased - cpuAtHandled,
      mainCpuMs: threads.main - threadsBefore.main,
      otherThreadsCpuMs: threads.others - threadsBefore.others,
    };
    threadsBefore = threads;
    appendFileSync(out, `${JSON.stringify(stamp)}\n`);
  });
  return result;
};
