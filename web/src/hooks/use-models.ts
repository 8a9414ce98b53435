// Whether the server can generate (a model provider is configured) and which model it proposes.
import { useQuery } from "urql";
import { ModelsDocument } from "../../../src/client/index.js";

export function useModels() {
  const [{ data }] = useQuery({ query: ModelsDocument });
  return data?.models ?? { configured: false, defaultModel: null };
}
