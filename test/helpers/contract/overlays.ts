// The two documented differences between the published OpenAPI and the API as our spec
// describes it (the contract gate applies them to a copy of the document, nowhere else):
//  (a) the spec's name `platform_one` stands where the OpenAPI says `uber_one`;
//  (b) a `oneOf` branch whose only content is one property means "has that property": the
//      OpenAPI omits `required`, so as published every object would match every branch.
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function applyOverlays(document: Json): Json {
  if (Array.isArray(document)) return document.map(applyOverlays);
  if (document === null || typeof document !== 'object') return document;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(document)) out[key === 'uber_one' ? 'platform_one' : key] = applyOverlays(value);
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
