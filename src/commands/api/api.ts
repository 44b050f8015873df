// `platform api [METHOD] PATH`: an authenticated call to any path, like `gh api`.
import { STATUS_CODES } from 'node:http';
import type { ApiClient } from '../../api/client.js';
import { describeErrorBody, type HttpCore, type HttpRequest, type HttpResponse } from '../../http/core.js';
import { isRiderApiPath } from '../../api/rider.js';
import { walkPages } from '../../api/paginate.js';
import type { Context } from '../../context.js';
import { ApiError, UsageError } from '../../base/errors.js';
import { authErrorFor } from '../../http/auth-errors.js';
import { writeRows } from '../../output/rows.js';
import { write } from '../../base/stream-write.js';
import { forStream, jsonForStream } from '../../output/terminal-text.js';
import { readBytes } from '../input.js';
import { parseFields, toBody, toQuery } from './fields.js';
import type { ApiFlags } from './spec.js';

const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;
type Method = (typeof METHODS)[number];
const USAGE = 'Usage: platform api [METHOD] PATH [-f key=value] [-F key=value] [--input FILE] [-H "Name: value"] [--paginate] [-i]';

export async function run(ctx: Context, flags: ApiFlags, args: string[]): Promise<void> {
  const [explicitMethod, rawPath] = args.length > 1 ? [method(args[0]!), args[1]!] : [undefined, args[0]!];
  const fields = await parseFields(ctx, flags.rawField, flags.field);
  const input = flags.input === undefined ? undefined : await readBytes(ctx, flags.input, '--input');
  // Fields or a body mean POST, unless --paginate says this is a list to read.
  const verb = explicitMethod ?? (!flags.paginate && (fields.length || input) ? 'POST' : 'GET');
  if (flags.paginate && verb !== 'GET') throw new UsageError('--paginate follows the pages of GET lists only', USAGE);
  const headers = parseHeaders(flags.header ?? []);

  const client = await ctx.client();
  const { http, path } = target(client, rawPath);
  const req: HttpRequest = { method: verb, path, headers };
  if (verb === 'GET' || input) {
    if (fields.length) req.query = toQuery(fields);
  } else if (fields.length) {
    req.json = toBody(fields);
  }
  if (input) req.raw = { body: input, contentType: headers['content-type'] ? undefined : 'application/json' };

  const response = await http.sendRaw(req);
  if (flags.include) await writeHead(ctx, response);
  if (!isOk(response)) {
    await writeBody(ctx, response);
    throw errorFor(response, client);
  }
  if (flags.paginate) await paginate(ctx, client, http, req, response);
  else await writeBody(ctx, response);
}

function method(text: string): Method {
  const upper = text.toUpperCase();
  if (!(METHODS as readonly string[]).includes(upper)) throw new UsageError(`unknown method ${JSON.stringify(text)}: use one of ${METHODS.join(', ')}`, USAGE);
  return upper as Method;
}

/**
 * The host a path goes to and the path: rider API paths (/v1.2/...) to the profile's rider_url,
 * the rest to its base_url. A full URL only on one of those origins, so the token goes nowhere else.
 */
function target(client: ApiClient, raw: string): { http: HttpCore; path: string } {
  if (/^https?:\/\//i.test(raw)) {
    const url = new URL(raw);
    const rider = isRiderApiPath(url.pathname);
    const http = rider ? client.riderHttp : client.http;
    if (url.origin !== new URL(http.baseUrl).origin) {
      const host = rider ? `rider API (${http.baseUrl})` : `API (${http.baseUrl})`;
      throw new UsageError(`${raw} is not on the profile's ${host}; platform api sends the token there only`, USAGE);
    }
    return { http, path: raw };
  }
  const path = raw.startsWith('/') ? raw : `/${raw}`;
  return { http: isRiderApiPath(new URL(path, 'http://path').pathname) ? client.riderHttp : client.http, path };
}

function parseHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new UsageError(`-H ${JSON.stringify(line)}: expected "Name: value"`, USAGE);
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

const isOk = (response: HttpResponse) => response.status >= 200 && response.status < 300;

function errorFor(response: HttpResponse, client: ApiClient): Error {
  const { code, message } = describeErrorBody(response);
  return authErrorFor(response.status, code, message, client.tokens.need) ?? new ApiError(response.status, code, message, response.headers['x-request-id']);
}

async function writeHead(ctx: Context, response: HttpResponse): Promise<void> {
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`.trimEnd()];
  for (const [name, value] of Object.entries(response.headers)) lines.push(`${name}: ${value}`);
  await write(ctx.io.stdout, `${lines.join('\n')}\n\n`);
}

/** Pretty JSON for a person at a terminal; the exact body for a pipe. */
async function writeBody(ctx: Context, response: HttpResponse): Promise<void> {
  if (ctx.globals.query !== undefined && typeof response.body === 'object' && response.body !== null) {
    const { runQuery } = await import('../../output/query.js');
    const result = await runQuery(ctx.globals.query, response.body);
    await write(ctx.io.stdout, `${jsonForStream(JSON.stringify(result, null, ctx.io.stdoutIsTTY ? 2 : undefined), ctx.io.stdoutIsTTY)}\n`);
    return;
  }
  if (ctx.io.stdoutIsTTY && typeof response.body === 'object' && response.body !== null) {
    await write(ctx.io.stdout, `${jsonForStream(JSON.stringify(response.body, null, 2), true)}\n`);
  } else if (response.text) {
    // The exact body for a pipe, ending in a newline as a line of output should.
    const text = forStream(response.text, ctx.io.stdoutIsTTY);
    await write(ctx.io.stdout, text.endsWith('\n') ? text : `${text}\n`);
  }
}

/** The items of one page of a list: the response's array (e.g. `campaigns`) and its next_page_token. */
function listPage(body: unknown): { items: unknown[]; next?: string } {
  if (Array.isArray(body)) return { items: body };
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    const items = Object.values(record).find(Array.isArray);
    if (items) {
      const token = record.next_page_token;
      const next = typeof token === 'string' ? token : (token as { value?: unknown } | undefined)?.value;
      return { items, next: typeof next === 'string' && next ? next : undefined };
    }
  }
  throw new UsageError('--paginate needs a list: the response has no array of items');
}

/**
 * Follows next_page_token (sent back as page_token) and prints every item as one JSON array,
 * or NDJSON with -o ndjson, one page in memory at a time. A page that fails ends the
 * output cleanly, then the command fails with that page's error.
 */
async function paginate(ctx: Context, client: ApiClient, http: HttpCore, req: HttpRequest, first: HttpResponse): Promise<void> {
  let failed: HttpResponse | undefined;
  // The first page is already here; later ones are fetched raw, and a failed one ends the walk.
  const items = walkPages<unknown>(
    async ({ pageToken }) => {
      const response = pageToken ? await http.sendRaw({ ...req, query: { ...req.query, page_token: pageToken } }) : first;
      if (!isOk(response)) {
        failed = response;
        return { items: [] };
      }
      const page = listPage(response.body);
      return { items: page.items, nextPageToken: page.next };
    },
    { all: true },
  );
  if (ctx.globals.output !== 'ndjson' && !ctx.io.stdoutIsTTY && ctx.globals.query === undefined) {
    // Raw for a pipe: one compact JSON array, not 12 MB of indentation.
    let first = true;
    for await (const item of items) {
      await write(ctx.io.stdout, `${first ? '[' : ','}${JSON.stringify(item)}`);
      first = false;
    }
    await write(ctx.io.stdout, first ? '[]\n' : ']\n');
  } else {
    const output = ctx.globals.output === 'ndjson' ? 'ndjson' : 'json';
    await writeRows({ ...ctx, globals: { ...ctx.globals, output } }, { noun: 'items', columns: [] }, items);
  }
  if (failed) throw errorFor(failed, client);
}
