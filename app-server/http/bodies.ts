import type { Context, TypedResponse } from 'hono';
import type { z } from 'zod';

/** A required JSON body validated by `schema` (and documented in the OpenAPI file). */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});

/** A required form body (urlencoded or multipart), as the spec gives for most calls. */
export const formBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema }, 'multipart/form-data': { schema } },
});

/** A JSON answer documented with its schema. */
export const jsonAnswer = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { 'application/json': { schema } },
});

/**
 * A JSON answer documented with its schema, for a handler that answers with database rows whose column types are
 * wider than the schema (text where the schema names the values): the document is exact, the compiler does not
 * hold the handler to it, and the API test holds every real answer to the schema.
 */
export const rowsAnswer = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { 'application/json': { schema: schema as unknown as z.ZodType<unknown> } },
});

/**
 * An answer whose JSON text is already made (by the database, see escrows/view.ts), or its UTF-8 bytes (a kept
 * answer, see caching/answers-at-position.ts): sent as it is.
 */
export const jsonText = <T, S extends 200 | 201>(c: Context, text: string | Uint8Array<ArrayBuffer>, status: S) =>
  c.body(text, status, { 'content-type': 'application/json' }) as unknown as TypedResponse<T, S, 'json'>;
