// Export a branch (the context of a response) in any MessageFormat (OpenAI chat messages, Responses
// input items, an Anthropic Messages body, AI SDK UIMessages) or as a readable transcript, downloaded
// as a file.
import { useState } from "react";
import { useClient } from "urql";
import { download } from "../../lib/download.js";
import { ExportMessagesDocument, ExportTranscriptDocument } from "../../lib/operations.js";

type Format = "OPENAI_CHAT" | "OPENAI_RESPONSES" | "ANTHROPIC_MESSAGES" | "AI_SDK_UI" | "TRANSCRIPT";

const formats: { format: Format; label: string; suffix: string }[] = [
  { format: "OPENAI_CHAT", label: "OpenAI chat", suffix: "openai-chat" },
  { format: "OPENAI_RESPONSES", label: "Responses", suffix: "openai-responses" },
  { format: "ANTHROPIC_MESSAGES", label: "Anthropic", suffix: "anthropic-messages" },
  { format: "AI_SDK_UI", label: "AI SDK", suffix: "ai-sdk-ui" },
  { format: "TRANSCRIPT", label: "Transcript", suffix: "txt" },
];

export function ExportMenu({ dialogId, responseId }: { dialogId: string; responseId: string | null }) {
  const client = useClient();
  const [problem, setProblem] = useState<string | null>(null);
  const save = async (format: Format) => {
    setProblem(null);
    if (format === "TRANSCRIPT") {
      const result = await client
        .query(ExportTranscriptDocument, { dialogId, responseId }, { requestPolicy: "network-only" })
        .toPromise();
      if (!result.data?.dialog) return setProblem(result.error?.message ?? "export failed");
      return download(`${responseId ?? dialogId}.txt`, result.data.dialog.transcript, "text/plain");
    }
    if (!responseId) return setProblem("nothing to export yet");
    const result = await client
      .query(ExportMessagesDocument, { id: responseId, format }, { requestPolicy: "network-only" })
      .toPromise();
    if (!result.data?.response) return setProblem(result.error?.message ?? "export failed");
    const suffix = formats.find((f) => f.format === format)!.suffix;
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
