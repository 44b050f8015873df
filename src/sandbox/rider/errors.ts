// Rider API error bodies (spec 7.2): {message, code, fields?}; the 409 surge error's
// {meta: {surge_confirmation}, errors: [...]}; zod issues turned into a fields map.
import type { z } from 'zod';
import type { SurgeConfirmation } from '../../schemas/rider.js';
import { HttpError } from '../http.js';

export function riderError(status: number, code: string, message: string, headers?: Record<string, string>): HttpError {
  return new HttpError({ status, body: { message, code }, headers });
}

export type Fields = Record<string, string[]>;

/** 422 validation_failed with each bad field named (missing ones as "Required", spec 7.2). */
export function validationFailed(fields: Fields, message = 'Invalid request.'): HttpError {
  return new HttpError({ status: 422, body: { message, code: 'validation_failed', fields } });
}

export function fieldsOf(error: z.ZodError): Fields {
  const fields: Fields = {};
  for (const issue of error.issues) {
    const name = issue.path.join('.') || '_body';
    const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
    (fields[name] ??= []).push(missing ? 'Required' : issue.message);
  }
  return fields;
}

/** Parses with a schema or answers 422 validation_failed. */
export function parseOr422<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationFailed(fieldsOf(result.error));
  return result.data;
}

export function surgeRequired(confirmation: SurgeConfirmation): HttpError {
  return new HttpError({
    status: 409,
    body: {
      meta: { surge_confirmation: confirmation },
      errors: [
        {
          status: 409,
          code: 'surge',
          title: `Surge pricing is in effect (x${confirmation.multiplier}); confirm it and request again with surge_confirmation_id.`,
        },
      ],
    },
  });
}

/** A JSON body whose top-level nulls mean "absent", as the real service treats optional fields sent as null. */
export function jsonBodyWithoutNulls(body: Buffer): unknown {
  const value = jsonBody(body);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}

export function jsonBody(body: Buffer): unknown {
  if (body.length === 0) return {};
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw riderError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
}

/** Query parameters as numbers where they look like numbers (the schema judges the rest). */
export function numericQuery(query: URLSearchParams, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const raw = query.get(name);
    if (raw === null || raw === '') continue;
    const n = Number(raw);
    out[name] = raw.trim() !== '' && Number.isFinite(n) ? n : raw;
  }
  return out;
}
