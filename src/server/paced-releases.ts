// Subscriptions released a batch per turn of the event loop. When thousands of clients close at
// once (a load balancer restarting, a network blip, a deploy), their sockets' close events all
// arrive in one turn of the loop, and releasing each subscription there (ending its stream, its
// live listener, its request log line) held the loop for seconds: `/health` and `/ready` waited
// behind it and the load balancer took the instance out. The socket's own close work stays where
// it is; what the subscription holds is released here, RELEASES_PER_TURN per turn, with whatever
// else arrived (a health check) answered between batches. A released subscription has already
// stopped writing (its socket is gone); the moment its listener goes only decides how long its
// dialog's payloads still find it.
const RELEASES_PER_TURN = 256;

interface Release {
  release: () => Promise<unknown> | undefined;
  done: () => void;
}

const queue: Release[] = [];
let head = 0;
let scheduled = false;

/** Runs `release` in a later turn, with at most RELEASES_PER_TURN others; resolves once it has. */
export function releaseSoon(release: () => Promise<unknown> | undefined): Promise<void> {
  return new Promise<void>((done) => {
    queue.push({ release, done });
    if (!scheduled) {
      scheduled = true;
      setImmediate(releaseBatch);
    }
  });
}

function releaseBatch() {
  const end = Math.min(queue.length, head + RELEASES_PER_TURN);
  for (; head < end; head++) {
    const { release, done } = queue[head]!;
    queue[head] = undefined as never; // let it go now, not when the queue empties
    // A release that fails has nothing left to tell anyone (the client is gone).
    try {
      const releasing = release();
      if (releasing) releasing.then(done, done);
      else done();
    } catch {
      done();
    }
  }
  if (head < queue.length) return void setImmediate(releaseBatch);
  queue.length = 0;
  head = 0;
  scheduled = false;
}
