import { Link } from "./Link.js";

export function NotFound({ message }: { message: string }) {
  return (
    <section className="not-found" data-testid="not-found" role="alert">
      <h1>Not found</h1>
      <p>{message}</p>
      <p className="muted">It may have been deleted, or the link is mistyped.</p>
      <Link href="/">Back to all dialogs</Link>
    </section>
  );
}
