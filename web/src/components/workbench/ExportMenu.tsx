// Export a branch (the context of a response) in any of the API's message formats (OpenAI chat,
// Responses input items, Anthropic Messages, AI SDK UI messages) or as a readable transcript,
// downloaded as a file.
import { useState } from "react";
import { useClient } from "urql";
import type { MessageFormat } from "../../../../src/client/index.js";
import { download } from "../../lib/download.js";
import { ExportMessagesDocument, ExportTranscriptDocument } from "../../lib/operations.js";

type Format = MessageFormat | "TRANSCRIPT";

const formats: { format: Format; label: string }[] = [
  { format: "OPENAI_CHAT", label: "OpenAI chat" },
  { format: "OPENAI_RESPONSES", label: "Responses" },
  { format: "ANTHROPIC_MESSAGES", label: "Anthropic" },
  { format: "AI_SDK_UI", label: "AI SDK" },
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
    const suffix = format.toLowerCase().replace(/_/g, "-");
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
