// The front page is a new chat: the first message sent makes the dialog, and the page moves to it.
import { dialogPath, navigate } from "../hooks/use-route.js";
import { startedHere } from "../lib/started-here.js";
import { Composer } from "./Composer.js";

export function Welcome() {
  return (
    <section className="welcome new-chat" data-testid="new-chat">
      <h1>New chat</h1>
      <p className="muted">
        Your dialogs are on the left, live. Press <kbd>?</kbd> for the keyboard shortcuts.
      </p>
      <Composer
        dialogId={null}
        previousResponseId={null}
        tip={null}
        onSent={({ dialogId, model }) => {
          startedHere.set(dialogId, model);
          navigate(dialogPath(dialogId));
        }}
      />
    </section>
  );
}
