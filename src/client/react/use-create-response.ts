// useCreateResponse(): store a turn from a component. Resolves with the Response or the typed
// error the server answered (ValidationError, ConflictError, NotFoundError).
import { useCallback } from "react";
import { useMutation } from "urql";
import { type CreateResponseInput, CreateResponseDocument } from "../generated/graphql.js";
import { DialogqlError } from "../transport.js";

export function useCreateResponse() {
  const [state, execute] = useMutation(CreateResponseDocument);
  const createResponse = useCallback(
    async (input: CreateResponseInput) => {
      const result = await execute({ input });
      if (result.error?.networkError) throw result.error.networkError;
      if (result.error) throw new DialogqlError(result.error.graphQLErrors);
      return result.data!.createResponse;
    },
    [execute],
  );
  return [state, createResponse] as const;
}
