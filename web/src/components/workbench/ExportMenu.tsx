// Export a branch (the context of a response) as OpenAI chat messages, Responses input items, or a
// readable transcript, downloaded as a file.
import { useState } from "react";
import { useClient } from "urql";
import { download } from "../../lib/download.js";
import { ExportMessagesDocument, ExportTranscriptDocument } from "../../lib/operations.js";

type Format = "OPENAI_CHAT" | "OPENAI_RESPONSES" | "TRANSCRIPT";

const formats: { format: Format; label: string }[] = [
  { format: "OPENAI_CHAT", label: "OpenAI chat" },
  { format: "OPENAI_RESPONSES", label: "Responses" },
  { format: "TRANSCRIPT", label: "Transcript" },
];

export function ExportMenu({ dialogId, responseId }: { dialogId: string; responseId: string | null }) {
  const client = useClient();
  const [problem, setProblem] = useState<string | null>(null);
  const save = async (format: Format) => {
    setProblem(null);
    if (format === "TRANSCRIPT") {
      const result = await client.query(ExportTranscriptDocument, { dialogId, responseId }, { requestPolicy: "network-only" }).toPromise();
      if (!result.data?.dialog) return setProblem(result.error?.message ?? "export failed");
      return download(`${responseId ?? dialogId}.txt`, result.data.dialog.transcript, "text/plain");
    }
    if (!responseId) return setProblem("nothing to export yet");
    const result = await client.query(ExportMessagesDocument, { id: responseId, format }, { requestPolicy: "network-only" }).toPromise();
    if (!result.data?.response) return setProblem(result.error?.message ?? "export failed");
    const suffix = format === "OPENAI_CHAT" ? "chat" : "responses";
    download(`${responseId}.${suffix}.json`, `${JSON.stringify(result.data.response.messages, null, 2)}\n`);
  };
  return (
    <span className="export-menu" data-testid="export-menu">
      export
      {formats.map(({ format, label }) => (
        <button key={format} type="button" onClick={() => void save(format)} data-format={format}>
          {label}
        </button>
      ))}
      {problem && <span className="tag tag-error">{problem}</span>}
    </span>
  );
}
