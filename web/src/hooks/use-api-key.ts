// Which API key the viewer calls with, and whether the server has refused it. The viewer starts
// with the saved key (or none, which a server without keys accepts) and asks for one only once the
// server refuses: so with no keys on the server nothing ever asks. A refused key is forgotten at
// once, so a wrong one cannot be retried in a loop; the sign-in form says why it was refused.
import { useCallback, useState } from "react";
import { forgetSavedApiKey, loadSavedApiKey, saveApiKey } from "../lib/saved-api-key.js";

export interface Refusal {
  /** The server's reason when a key was sent and refused; null when none was sent. */
  refusedKeyReason: string | null;
}

export function useApiKey() {
  const [apiKey, setApiKey] = useState(loadSavedApiKey);
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  const signIn = useCallback((key: string) => {
    saveApiKey(key);
    setApiKey(key);
    setRefusal(null);
  }, []);

  const forget = useCallback(() => {
    forgetSavedApiKey();
    setApiKey(null);
  }, []);

  // Several requests in flight are refused together: the first decides, the rest change nothing.
  const refused = useCallback(
    (reason: string) => {
      if (apiKey) forgetSavedApiKey();
      setApiKey(null);
      setRefusal((current) => current ?? { refusedKeyReason: apiKey ? reason : null });
    },
    [apiKey],
  );

  return { apiKey, refusal, signIn, forget, refused };
}
