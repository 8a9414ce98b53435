// A problem with a request body, as the Responses API reports it: a message and the parameter it
// concerns (a 400 with `param`, src/responses-api/api-errors.ts).
export class InvalidRequest extends Error {
  constructor(
    message: string,
    readonly param: string | null,
  ) {
    super(message);
  }
}
