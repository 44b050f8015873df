// The three documented differences between the published OpenAPI and the API as our spec
// describes it (the contract gate applies them to a copy of the document, nowhere else):
//  (a) the spec's name `platform_one` stands where the OpenAPI says `uber_one`;
//  (b) a `oneOf` branch whose only content is one property means "has that property": the
//      OpenAPI omits `required`, so as published every object would match every branch;
//  (c) a property whose description says an empty one clears it (an update's budget,
//      targeting and dayparting_schedule: "Providing an empty budget removes the budget from
//      the campaign") may be the empty object: the OpenAPI's schema requires their keys.
// And the deliberate departures (applyDepartures), each with its reason:
//  (d) every ads operation may answer 406 (an Accept header that allows no JSON) and 415 (a
//      body that is not JSON), which HTTP defines and the OpenAPI does not declare; their body
//      is the operation's error, with spec 7.1's code for a request format error, BadRequest;
//  (e) a campaign's ad group summaries carry ad_product: spec 2.4a lists it among the summary's
//      fields, the OpenAPI's GetCampaigns_AdGroupSummary does not.
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function applyOverlays(document: Json): Json {
  return applyDepartures(applyNamesAndRules(document));
}

function applyNamesAndRules(document: Json): Json {
  if (Array.isArray(document)) return document.map(applyNamesAndRules);
  if (document === null || typeof document !== 'object') return document;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(document)) out[key === 'uber_one' ? 'platform_one' : key] = applyNamesAndRules(value);
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

type JsonObject = { [key: string]: Json };
const isObject = (value: Json | undefined): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/** (d) and (e). */
function applyDepartures(document: Json): Json {
  if (!isObject(document) || !isObject(document.paths) || !isObject(document.components) || !isObject(document.components.schemas)) return document;
  for (const methods of Object.values(document.paths)) {
    if (!isObject(methods)) continue;
    for (const op of Object.values(methods)) {
      if (!isObject(op) || !isObject(op.responses) || !isObject(op.responses['400'])) continue;
      const badRequest = op.responses['400'];
      const content = isObject(badRequest.content) && isObject(badRequest.content['application/json']) ? badRequest.content['application/json'] : undefined;
      if (!content?.schema) continue;
      // Closed as a whole (the gate closes object schemas): the branch that pins the code leaves the others' fields be.
      const pinned: Json = { type: 'object', required: ['code'], properties: { code: { const: 'BadRequest' } }, additionalProperties: true };
      const schema: Json = { allOf: [content.schema, pinned], unevaluatedProperties: false };
      for (const status of ['406', '415'])
        op.responses[status] = { description: `deliberate (overlay d), code BadRequest`, content: { 'application/json': { schema } } };
    }
  }
  const summary = document.components.schemas.GetCampaigns_AdGroupSummary;
  if (isObject(summary) && isObject(summary.properties)) summary.properties.ad_product = { type: 'string', description: 'deliberate (overlay e): spec 2.4a' };
  return document;
}
