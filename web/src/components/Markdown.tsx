// Message text as markdown, rendered to React elements (react-markdown): GitHub's tables, task
// lists and strikethrough (remark-gfm), code blocks highlighted by their language (lib/highlight-code.ts,
// only when the fence names one). Raw HTML in the text is dropped, never injected, and link URLs
// pass react-markdown's safe-protocol filter.
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { highlightCode } from "../lib/highlight-code.js";

const components: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" />,
  // Wide tables scroll inside the message instead of widening the page.
  table: ({ node: _node, ...props }) => (
    <div className="table-scroll">
      <table {...props} />
    </div>
  ),
};

const remarkPlugins = [remarkGfm];
const rehypePlugins = [highlightCode];

export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown skipHtml components={components} remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
