// The pane follows the answer as it is typed: while the reader is at the bottom, new events and
// new text keep it there; once they scroll up to read, it stays where they put it until they come
// back down. A dialog opens at its latest message unless it was opened at an event.
import { type RefObject, useEffect, useLayoutEffect, useRef } from "react";

const NEAR_BOTTOM_PX = 80;

function scrollParent(element: HTMLElement | null): HTMLElement {
  for (let node = element?.parentElement; node; node = node.parentElement) {
    const overflow = getComputedStyle(node).overflowY;
    if (overflow === "auto" || overflow === "scroll") return node;
  }
  return document.scrollingElement as HTMLElement;
}

const atBottom = (scroller: HTMLElement) =>
  scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < NEAR_BOTTOM_PX;

/** `content` changes whenever what is shown grows (event count, typed length); `ready` once loaded. */
export function useFollowAnswer(
  anchor: RefObject<HTMLElement | null>,
  content: string,
  ready: boolean,
  openAtEnd: boolean,
) {
  const following = useRef(openAtEnd);
  useEffect(() => {
    if (!ready) return;
    const scroller = scrollParent(anchor.current);
    const target = scroller === document.scrollingElement ? window : scroller;
    const onScroll = () => {
      following.current = atBottom(scroller);
    };
    target.addEventListener("scroll", onScroll, { passive: true });
    return () => target.removeEventListener("scroll", onScroll);
  }, [anchor, ready]);
  useLayoutEffect(() => {
    if (!ready || !following.current) return;
    const scroller = scrollParent(anchor.current);
    scroller.scrollTop = scroller.scrollHeight;
  }, [anchor, content, ready]);
}
