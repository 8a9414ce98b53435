// The viewer behind its API key: the app with the key in use (or none), or the sign-in form once
// the server has refused. The provider is keyed by the API key, so a new key starts from nothing:
// a new urql cache, and sockets opened with that key.
import type { ReactNode } from "react";
import { DialogqlProvider } from "../../../src/client/react/index.js";
import { useApiKey } from "../hooks/use-api-key.js";
import { SignIn } from "./SignIn.js";

interface Props {
  children: (options: { onForgetKey: (() => void) | null }) => ReactNode;
}

export function ApiKeyGate({ children }: Props) {
  const { apiKey, refusal, signIn, forget, refused } = useApiKey();
  if (refusal) return <SignIn refusal={refusal} onSubmit={signIn} />;
  return (
    <DialogqlProvider key={apiKey ?? ""} url="/graphql" apiKey={apiKey} onUnauthenticated={refused}>
      {children({ onForgetKey: apiKey ? forget : null })}
    </DialogqlProvider>
  );
}
