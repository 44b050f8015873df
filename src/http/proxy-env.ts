// Which proxy a request goes through, read from the environment by curl's rules, so that a
// shell where `curl` works works for platform too:
//   http:// targets:  http_proxy, then HTTP_PROXY (curl reads only the lower-case one; see below)
//   https:// targets: https_proxy, then HTTPS_PROXY — never the HTTP proxy
//   either, when its own is unset: all_proxy, then ALL_PROXY
//   no_proxy, then NO_PROXY: hosts reached directly
// An empty variable counts as unset. A proxy URL without a scheme is http://; without a port
// it is 1080 (http://) or 443 (https://), as curl has it. user:password@ in it is sent as
// Proxy-Authorization: Basic, and kept out of every message.
import { BlockList, isIP } from 'node:net';
import { UsageError } from '../base/errors.js';
import type { Env } from '../base/io.js';

export interface Proxy {
  /** The proxy's origin without credentials, e.g. http://proxy.corp:3128: safe to print. */
  origin: string;
  /** Proxy-Authorization from the URL's user:password, percent-decoded. */
  authorization?: string;
  /** The variable it came from, for messages. */
  variable: string;
}

export interface ProxySettings {
  /** The proxy of http:// targets, if any. */
  http?: Proxy;
  /** The proxy of https:// targets, if any. */
  https?: Proxy;
  noProxy: NoProxy;
}

interface NoProxy {
  all: boolean;
  /** Names (lower case) matched as themselves and as a domain suffix; port 0 = any. */
  names: Array<{ name: string; port: number }>;
  /** IP addresses and CIDR ranges. */
  addresses: Array<{ list: BlockList; port: number }>;
}

const DEFAULT_PROXY_PORT: Record<string, string> = { 'http:': '1080', 'https:': '443' };
const DEFAULT_TARGET_PORT: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** The environment's proxies; undefined when it names none (every call goes direct). */
export function proxySettings(env: Env): ProxySettings | undefined {
  const all = firstSet(env, ['all_proxy', 'ALL_PROXY']);
  // Upper-case HTTP_PROXY is read too (most tools do; curl does not, because a CGI script gets
  // a request's `Proxy:` header as HTTP_PROXY), except when running as a CGI script.
  const http = firstSet(env, env.REQUEST_METHOD ? ['http_proxy'] : ['http_proxy', 'HTTP_PROXY']) ?? all;
  const https = firstSet(env, ['https_proxy', 'HTTPS_PROXY']) ?? all;
  if (!http && !https) return undefined;
  return {
    http: http && parseProxy(http.variable, http.value),
    https: https && parseProxy(https.variable, https.value),
    noProxy: parseNoProxy(firstSet(env, ['no_proxy', 'NO_PROXY'])?.value ?? ''),
  };
}

/** The proxy a request to `url` goes through; undefined: direct. */
export function proxyFor(url: string, settings: ProxySettings | undefined): Proxy | undefined {
  if (!settings) return undefined;
  const target = new URL(url);
  const proxy = target.protocol === 'https:' ? settings.https : target.protocol === 'http:' ? settings.http : undefined;
  if (!proxy) return undefined;
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const port = Number(target.port) || DEFAULT_TARGET_PORT[target.protocol] || 0;
  return bypassed(settings.noProxy, host, port) ? undefined : proxy;
}

function firstSet(env: Env, names: readonly string[]): { variable: string; value: string } | undefined {
  for (const variable of names) {
    const value = env[variable]?.trim();
    if (value) return { variable, value };
  }
  return undefined;
}

function parseProxy(variable: string, value: string): Proxy {
  // The value itself may hold a password: messages never repeat it.
  const shape = 'http://[user:password@]host[:port] (or https://)';
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(`${variable} is not a proxy URL: ${shape}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${variable}: ${url.protocol}// proxies are not supported; give an HTTP proxy: ${shape}`);
  }
  if (!url.hostname) throw new UsageError(`${variable} is not a proxy URL: ${shape}`);
  const origin = `${url.protocol}//${url.hostname}:${explicitPort(withScheme) ?? DEFAULT_PROXY_PORT[url.protocol]}`;
  if (!url.username && !url.password) return { origin, variable };
  let credentials: string;
  try {
    credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  } catch {
    throw new UsageError(`${variable}: the user or password in it has a bad percent-escape (write % as %25)`);
  }
  return { origin, variable, authorization: `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}` };
}

/** The port written in a URL, even the scheme's default one (URL drops :80 from http://). */
function explicitPort(url: string): string | undefined {
  const authority = url.replace(/^[^:]+:\/\//, '').split(/[/?#]/)[0]!;
  const port = /:(\d+)$/.exec(authority.slice(authority.lastIndexOf('@') + 1))?.[1];
  return port === undefined ? undefined : String(Number(port));
}

/**
 * Entries separated by commas or spaces: `*` (everything), a name (itself and its subdomains;
 * a leading `.` or `*.` is allowed), an IP address, a CIDR range (10.0.0.0/8, fd00::/8), each
 * optionally with :port (IPv6 in brackets: [::1]:8080).
 */
function parseNoProxy(value: string): NoProxy {
  const noProxy: NoProxy = { all: false, names: [], addresses: [] };
  for (const raw of value.toLowerCase().split(/[\s,]+/)) {
    if (!raw) continue;
    if (raw === '*') {
      noProxy.all = true;
      continue;
    }
    const [entry, port] = splitPort(raw);
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const family = isIP(address);
    if (family) {
      const list = new BlockList();
      const type = family === 4 ? 'ipv4' : 'ipv6';
      const prefix = bits === undefined ? (family === 4 ? 32 : 128) : Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) continue; // not a range curl would match either
      list.addSubnet(address, prefix, type);
      noProxy.addresses.push({ list, port });
    } else {
      noProxy.names.push({ name: entry.replace(/^\*?\./, ''), port });
    }
  }
  return noProxy;
}

/** `host:port` or `[v6]:port` to [host, port]; port 0 when none. */
function splitPort(entry: string): [string, number] {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return [bracketed[1]!, Number(bracketed[2] ?? 0)];
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  return withPort ? [withPort[1]!, Number(withPort[2])] : [entry, 0];
}

function bypassed(noProxy: NoProxy, host: string, port: number): boolean {
  if (noProxy.all) return true;
  const portMatches = (entry: { port: number }) => entry.port === 0 || entry.port === port;
  const family = isIP(host);
  // An address matches addresses and ranges only: 10.0.0.1 is not "in the domain" .0.0.1.
  if (family) return noProxy.addresses.some((entry) => portMatches(entry) && entry.list.check(host, family === 4 ? 'ipv4' : 'ipv6'));
  return noProxy.names.some((entry) => portMatches(entry) && (host === entry.name || host.endsWith(`.${entry.name}`)));
}
