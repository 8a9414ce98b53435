// OpenAI content parts of a message: text, images (http(s) or data URLs only), audio and files.
import type { HistoryEvent } from "../../../../src/client/index.js";
import { Markdown } from "../Markdown.js";

type Parts = NonNullable<Extract<HistoryEvent, { __typename: "HumanEvent" }>["parts"]>;

const isDisplayableImage = (url: string) => /^(https?:|data:image\/)/i.test(url);

export function ContentParts({ parts }: { parts: Parts }) {
  return (
    <ul className="parts">
      {parts.map((part, index) => (
        <li key={index} className={`part part-${part.__typename}`}>
          {part.__typename === "TextPart" && <Markdown text={part.text} />}
          {part.__typename === "ImageUrlPart" &&
            (isDisplayableImage(part.url) ? (
              <img src={part.url} alt="image part" loading="lazy" referrerPolicy="no-referrer" />
            ) : (
              <code>{part.url}</code>
            ))}
          {part.__typename === "AudioPart" && <span className="tag">audio · {part.format}</span>}
          {part.__typename === "FilePart" && (
            <span className="tag">file · {part.filename ?? part.fileId ?? "inline"}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
