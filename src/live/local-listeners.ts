// This instance's listeners of the live bus (src/live/live-bus.ts), by channel: what is delivered
// here, from this instance's writers or through Redis from the others', is handed to each listener
// of its channel — for a dialog, in seq order (src/live/seq-order.ts), its ended texts kept once
// for all its listeners (src/live/ended-texts.ts).
import { EndedTexts } from "./ended-texts.js";
import {
  isCommittedWrite,
  isDeleted,
  isResync,
  isText,
  type LiveMessage,
  type NoticeHandler,
} from "./live-messages.js";
import { PayloadQueue } from "./payload-queue.js";
import { type Place, SeqOrder } from "./seq-order.js";

// A subscriber that stops reading keeps at most this many payloads; older ones are dropped and
// the history stream refills the hole from the database when it notices the gap.
const LISTENER_BUFFER = 10_000;
export const NOTICES = "dialogql:notices";

export type LocalListeners = ReturnType<typeof localListeners>;

/** Where a message stands in its dialog's order (src/live/seq-order.ts). */
function placeOf(message: LiveMessage): Place {
  if (isText(message)) return "after";
  if (isResync(message)) return "resync";
  if (isDeleted(message)) return "flush";
  return message;
}

/** One channel's listeners; a dialog's (historyDelta) get its payloads in seq order, and the
 * dialog's ended texts are kept once for all of them. */
class Channel {
  readonly listeners = new Set<PayloadQueue<LiveMessage>>();
  readonly order: SeqOrder<LiveMessage> | null;
  readonly endedTexts = new EndedTexts();

  constructor(topic: string, holdMs: number) {
    this.order = topic === "historyDelta" ? new SeqOrder(placeOf, (message) => this.handOn(message), holdMs) : null;
  }

  deliver(message: LiveMessage) {
    if (this.order) this.order.receive(message);
    else this.handOn(message);
  }

  handOn(message: LiveMessage) {
    if (this.order && isCommittedWrite(message)) this.endedTexts.onCommitted(message);
    for (const listener of this.listeners) listener.push(message);
  }
}

/** This instance's listeners, by channel, and its notice handlers. */
export function localListeners(orderHoldMs: number) {
  // Every listener of a channel gets the same payload object (which is what lets subscribers
  // share one execution of it, src/server/shared-subscription-results.ts).
  const channels = new Map<string, Channel>();
  const noticeHandlers: NoticeHandler[] = [];
  return {
    deliver(channel: string, message: unknown) {
      if (channel === NOTICES) return noticeHandlers.forEach((handle) => handle(message));
      channels.get(channel)?.deliver(message as LiveMessage);
    },
    everyListener: () => [...channels.values()].flatMap((each) => [...each.listeners]),
    channels: () => [...channels.keys()],
    count: (channel: string) => channels.get(channel)?.listeners.size ?? 0,
    committedUpTo: (channel: string, seq: number) => channels.get(channel)?.order?.committedUpTo(seq),
    // A listener released at once (its channel gone) gets a registry of its own, which nothing fills.
    endedTexts: (channel: string) => channels.get(channel)?.endedTexts ?? new EndedTexts(),
    /** A new listener of `channel`; `released` is called when it returns. */
    add(channel: string, released: () => void): PayloadQueue<LiveMessage> {
      let listening = channels.get(channel);
      if (!listening)
        channels.set(channel, (listening = new Channel(channel.slice(0, channel.indexOf(":")), orderHoldMs)));
      const { listeners } = listening;
      const payloads: PayloadQueue<LiveMessage> = new PayloadQueue(LISTENER_BUFFER, () => {
        listeners.delete(payloads);
        if (!listeners.size && channels.get(channel) === listening) {
          channels.delete(channel);
          listening.order?.close();
        }
        released();
      });
      listeners.add(payloads);
      return payloads;
    },
    onNotice(handler: NoticeHandler) {
      noticeHandlers.push(handler);
    },
  };
}
