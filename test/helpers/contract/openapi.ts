// Validates recorded ads exchanges against the public OpenAPI of the ads API
// (vendored as test/contract/ads-openapi.json; its source is in test/contract/SOURCE.md), with ajv: query parameters, request bodies and
// response bodies of each operation. Only the overlays in overlays.ts are applied.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2019, type ValidateFunction } from 'ajv/dist/2019.js';
import { applyOverlays } from './overlays.js';

export interface Exchange {
  test: string;
  method: string;
  /** Path and query as sent. */
  url: string;
  requestBody?: string;
  status: number;
  responseContentType?: string;
  responseBody?: string;
}

interface Parameter {
  name: string;
  in: string;
  schema?: { type?: string };
}

interface Operation {
  id: string;
  method: string;
  pattern: RegExp;
  query: Map<string, Parameter>;
  request?: ValidateFunction;
  responses: Map<string, ValidateFunction>;
}

export const OPENAPI_PATH = path.resolve(import.meta.dirname, '../../contract/ads-openapi.json');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** `#/components/...` refs made absolute, so operation schemas compile on their own. */
function absoluteRefs(value: Json): Json {
  if (Array.isArray(value)) return value.map(absoluteRefs);
  if (value === null || typeof value !== 'object') return value;
  const out: { [key: string]: Json } = {};
  for (const [key, inner] of Object.entries(value))
    out[key] = key === '$ref' && typeof inner === 'string' && inner.startsWith('#/') ? `openapi.json${inner}` : absoluteRefs(inner);
  return out;
}

/**
 * Every object schema allows no properties but those it declares: a field the OpenAPI does not
 * declare, in a request the CLI sends or an answer the sandbox gives, is a violation (the
 * deliberate ones are declared by the overlays). `unevaluatedProperties` (JSON Schema 2019-09)
 * on the schema that lists properties or composes others (allOf, oneOf, anyOf), never on a
 * branch of a composition: the whole sees the fields every matching branch declares.
 */
function closed(value: Json, branch = false): Json {
  if (Array.isArray(value)) return value.map((item) => closed(item, branch));
  if (value === null || typeof value !== 'object') return value;
  const out: { [key: string]: Json } = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'example' || key === 'examples') out[key] = inner;
    else out[key] = closed(inner, key === 'allOf' || key === 'oneOf' || key === 'anyOf');
  }
  const composes = ['allOf', 'oneOf', 'anyOf'].some((key) => key in out);
  if (!branch && (out.properties !== undefined || composes) && !('additionalProperties' in out) && !('unevaluatedProperties' in out)) {
    out.unevaluatedProperties = false;
  }
  return out;
}

export class OpenApiContract {
  readonly operations: Operation[] = [];

  constructor(file = OPENAPI_PATH) {
    const document = absoluteRefs(closed(applyOverlays(JSON.parse(fs.readFileSync(file, 'utf8')) as Json))) as unknown as {
      paths: Record<
        string,
        Record<
          string,
          {
            operationId: string;
            parameters?: Parameter[];
            requestBody?: { content?: Record<string, { schema?: object }> };
            responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
          }
        >
      >;
      components: object;
    };
    const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ components: document.components }, 'openapi.json');
    for (const [template, methods] of Object.entries(document.paths)) {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const [method, op] of Object.entries(methods)) {
        if (!op.operationId) continue;
        const requestSchema = op.requestBody?.content?.['application/json']?.schema;
        const responses = new Map<string, ValidateFunction>();
        for (const [status, response] of Object.entries(op.responses ?? {})) {
          const schema = response.content?.['application/json']?.schema;
          if (schema) responses.set(status, ajv.compile(schema));
        }
        this.operations.push({
          id: op.operationId,
          method: method.toUpperCase(),
          pattern,
          query: new Map((op.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p])),
          request: requestSchema ? ajv.compile(requestSchema) : undefined,
          responses,
        });
      }
    }
  }

  operationOf(method: string, pathname: string): Operation | undefined {
    return this.operations.find((op) => op.method === method && op.pattern.test(pathname));
  }

  /** Every way the exchange departs from the OpenAPI, one line each; [] when it conforms. */
  violations(exchange: Exchange): string[] {
    const url = new URL(exchange.url, 'http://api');
    const op = this.operationOf(exchange.method, url.pathname);
    if (!op) return [];
    const where = `${op.id} (${exchange.method} ${url.pathname}) in "${exchange.test}"`;
    const found: string[] = [];
    const seen = new Set<string>();
    for (const [name, value] of url.searchParams) {
      const param = op.query.get(name);
      if (!param) found.push(`${where}: query parameter ${name} is not in the OpenAPI`);
      else if (seen.has(name) && param.schema?.type !== 'array')
        found.push(`${where}: query parameter ${name} is repeated; the OpenAPI declares one ${param.schema?.type ?? 'value'}`);
      else if (param.schema?.type === 'integer' && !/^-?\d+$/.test(value)) found.push(`${where}: query parameter ${name}=${value} is not an integer`);
      seen.add(name);
    }
    if (op.request && exchange.requestBody !== undefined) found.push(...this.#check(op.request, exchange.requestBody, `${where}: request body`));
    const responseSchema = op.responses.get(String(exchange.status)) ?? op.responses.get('default');
    if (responseSchema && exchange.responseBody && /json/.test(exchange.responseContentType ?? '')) {
      found.push(...this.#check(responseSchema, exchange.responseBody, `${where}: response ${exchange.status}`));
    }
    return found;
  }

  #check(validate: ValidateFunction, text: string, label: string): string[] {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return [`${label} is not JSON`];
    }
    if (validate(value)) return [];
    // The deepest first: of a oneOf's branches, the one that nearly matched says most (`.../match_type`).
    return [...(validate.errors ?? [])]
      .sort((a, b) => b.instancePath.split('/').length - a.instancePath.split('/').length)
      .slice(0, 5)
      .map(
        (e) =>
          `${label} at ${e.instancePath || '/'}: ${e.message ?? 'invalid'}${e.params && 'allowedValues' in e.params ? ` (${JSON.stringify(e.params.allowedValues)})` : ''}`,
      );
  }
}
