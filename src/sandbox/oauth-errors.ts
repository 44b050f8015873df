// OAuth error bodies (spec 5.13, RFC 6749 5.2) and form fields of the token endpoint.
import { HttpError } from './http.js';

export function oauthError(status: number, error: string, description: string, headers?: Record<string, string>): HttpError {
  return new HttpError({ status, body: { error, error_description: description }, headers });
}

/** A non-empty string field of the form, else undefined. */
export function field(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === 'string' && value !== '' ? value : undefined;
}
