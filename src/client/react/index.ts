// dialogql/client/react: React hooks over urql for dialogql. React, urql and wonka are optional
// peer dependencies of the package: only this entry point needs them.
export type { ApiKeySource } from "../api-key.js";
export { createDialogqlUrqlClient, type DialogqlUrqlOptions } from "./create-urql-client.js";
export { DialogqlProvider, type DialogqlProviderProps } from "./provider.js";
export { useCreateResponse } from "./use-create-response.js";
export { type DialogHistory, useDialogHistory } from "./use-dialog-history.js";
export { useDialogs, type UseDialogsOptions } from "./use-dialogs.js";
export { urqlTransport } from "./urql-transport.js";
