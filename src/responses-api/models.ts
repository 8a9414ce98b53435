// GET /v1/models and GET /v1/models/{id}: the configured models in OpenAI's shapes. The list is
// the catalog's (MODELS, or DEFAULT_MODEL and the names MODEL_PROVIDERS spells out); a model
// outside the list is still found when a provider serves its name (a `*` rule serves any), and
// a name no provider serves is OpenAI's 404 `model_not_found`.
import type { ListedModel, ModelCatalog } from "../generation/providers.js";
import { ApiError, errorResponse, json } from "./api-errors.js";

type ModelsCall = { generator: { models: ModelCatalog }; params: Record<string, string> };

export async function listModels(_request: Request, { generator }: ModelsCall) {
  return json(200, { object: "list", data: generator.models.listed.map(modelObject) });
}

/** `id` is the rest of the path: a model's name may hold a slash (`openai/gpt-4o`). */
export async function readModel(_request: Request, { generator, params }: ModelsCall) {
  const { models } = generator;
  const name = params.id!;
  const model = models.listed.find((listed) => listed.id === name) ?? unlisted(models, name);
  if (!model) {
    return errorResponse(
      new ApiError(404, `The model '${name}' does not exist`, "invalid_request_error", "model", "model_not_found"),
    );
  }
  return json(200, modelObject(model));
}

const modelObject = (model: ListedModel) => ({
  id: model.id,
  object: "model",
  created: model.created,
  owned_by: model.ownedBy,
});

function unlisted(models: ModelCatalog, name: string): ListedModel | null {
  try {
    const upstream = models.upstreamOf(name);
    return {
      id: name,
      ownedBy: upstream === "anthropic" ? "anthropic" : "openai",
      created: models.listed[0]?.created ?? 0,
    };
  } catch {
    return null;
  }
}
