export function Welcome() {
  return (
    <section className="welcome">
      <h1>dialogql viewer</h1>
      <p>Pick a dialog on the left. Its history appears here and grows live as agents write to it.</p>
      <p className="muted">
        Write one through the API (GraphiQL is at <a href="/graphql">/graphql</a>):
      </p>
      <pre className="json">{`mutation {
  createResponse(input: {
    model: "gpt-4o"
    input: [{ human: { content: "Hello" } }]
    output: [{ ai: { content: "Hi! How can I help?" } }]
  }) { ... on Response { id dialog { id } } }
}`}</pre>
    </section>
  );
}
