// `null` in JSON input means "absent" (as protobuf JSON, which the API speaks, reads it): an
// item's null values are dropped before it is validated, at any depth, by the CLI and the sandbox.

/** The value with every object key whose value is null removed (array elements are kept). */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) if (inner !== null) out[key] = withoutNulls(inner);
  return out;
}
