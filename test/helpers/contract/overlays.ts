// The three documented differences between the published OpenAPI and the API as our spec
// describes it (the contract gate applies them to a copy of the document, nowhere else):
//  (a) the spec's name `platform_one` stands where the OpenAPI says `uber_one`;
//  (b) a `oneOf` branch whose only content is one property means "has that property": the
//      OpenAPI omits `required`, so as published every object would match every branch;
//  (c) a property whose description says an empty one clears it (an update's budget,
//      targeting and dayparting_schedule: "Providing an empty budget removes the budget from
//      the campaign") may be the empty object: the OpenAPI's schema requires their keys.
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function applyOverlays(document: Json): Json {
  if (Array.isArray(document)) return document.map(applyOverlays);
  if (document === null || typeof document !== 'object') return document;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(document)) out[key === 'uber_one' ? 'platform_one' : key] = applyOverlays(value);
  const properties = out.properties;
  if (properties && typeof properties === 'object' && !Array.isArray(properties)) {
    out.properties = Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, emptyClears(schema)]));
  }
  if (Array.isArray(out.oneOf)) {
    out.oneOf = out.oneOf.map((branch) => {
      if (branch === null || typeof branch !== 'object' || Array.isArray(branch)) return branch;
      const properties = branch.properties;
      if (properties && typeof properties === 'object' && !Array.isArray(properties) && Object.keys(properties).length === 1 && !branch.required) {
        return { ...branch, required: Object.keys(properties) };
      }
      return branch;
    });
  }
  return out;
}

/** The text by which a property's description says that an empty one clears it. */
const CLEARED_BY_EMPTY = /\bProviding an empty [a-z ]+ (removes|clears|disables)\b/;

/** (c): a property whose description says so also takes `{}`. */
function emptyClears(schema: Json): Json {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const { description, ...rest } = schema;
  if (typeof description !== 'string' || !CLEARED_BY_EMPTY.test(description)) return schema;
  return { description, anyOf: [rest, { type: 'object', maxProperties: 0 }] };
}
