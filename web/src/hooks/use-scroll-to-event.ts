// Opening a dialog at an event (a search result): once the event is on the page, scroll it into
// view and mark it, so the eye lands on it.
import { useEffect } from "react";

export function useScrollToEvent(seq: number | null, eventsOnPage: number) {
  useEffect(() => {
    if (seq == null) return;
    const element = document.querySelector<HTMLElement>(`[data-testid=event][data-seq="${seq}"]`);
    if (!element) return;
    document.querySelectorAll(".event-target").forEach((other) => other.classList.remove("event-target"));
    element.classList.add("event-target");
    element.querySelector("details")?.setAttribute("open", "");
    element.scrollIntoView({ block: "center" });
  }, [seq, eventsOnPage]);
}
