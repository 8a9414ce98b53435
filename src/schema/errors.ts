// Expected failures as schema types: mutations return them as typed results.
import { AppError, ConflictError, NotFoundError, TextOffsetError, ValidationError } from "../errors.js";
import { builder } from "./builder.js";

export const ErrorInterface = builder.interfaceRef<AppError>("Error").implement({
  description: "A failure the caller can act on. `code` is stable; `message` is for people.",
  fields: (t) => ({
    message: t.exposeString("message"),
    code: t.exposeString("code"),
  }),
});

builder.objectType(NotFoundError, {
  name: "NotFoundError",
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof NotFoundError,
});

builder.objectType(ConflictError, {
  name: "ConflictError",
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof ConflictError && !(value instanceof TextOffsetError),
});

builder.objectType(TextOffsetError, {
  name: "TextOffsetError",
  description: "A text delta whose offset is not where the in-flight text ends; resend from expectedOffset.",
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof TextOffsetError,
  fields: (t) => ({
    expectedOffset: t.exposeInt("expectedOffset"),
    heldPart: t.int({
      nullable: true,
      description: "The part of the in-flight text held, if any.",
      resolve: (error) => error.part,
    }),
  }),
});

const FieldErrorRef = builder.objectRef<ValidationError["fieldErrors"][number]>("FieldError").implement({
  fields: (t) => ({
    path: t.exposeStringList("path", {
      description: 'Path of the input field, e.g. ["input", "2", "toolCall", "args"].',
    }),
    message: t.exposeString("message"),
  }),
});

builder.objectType(ValidationError, {
  name: "ValidationError",
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof ValidationError,
  fields: (t) => ({
    fieldErrors: t.field({ type: [FieldErrorRef], resolve: (error) => error.fieldErrors }),
  }),
});

/** The error types every write can answer with. */
export const writeErrors = [NotFoundError, ValidationError, ConflictError];
