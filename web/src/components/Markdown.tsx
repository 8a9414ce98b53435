// Message text as markdown, rendered to React elements (react-markdown): raw HTML in the text is
// dropped, never injected, and link URLs pass react-markdown's safe-protocol filter.
import ReactMarkdown, { type Components } from "react-markdown";

const components: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" />,
};

export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown skipHtml components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
