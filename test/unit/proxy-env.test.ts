// Which proxy a URL goes through, by curl's rules (src/http/proxy-env.ts). Each expectation
// was checked against curl 7.88 where curl has a rule (ports, lower case first, empty = unset,
// CIDR, IP addresses not matched as domains); host:port and `*.` in NO_PROXY are ours.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/base/errors.js';
import { proxyFor, proxySettings } from '../../src/http/proxy-env.js';

/** The proxy origin and variable `url` goes through in `env`, or 'direct'. */
function via(env: Record<string, string>, url: string): string {
  const proxy = proxyFor(url, proxySettings(env));
  return proxy ? `${proxy.origin} ${proxy.variable}` : 'direct';
}

describe('which variable', () => {
  it('https:// targets use HTTPS_PROXY, never HTTP_PROXY; http:// ones HTTP_PROXY, never HTTPS_PROXY', () => {
    expect(via({ HTTP_PROXY: 'http://h:1' }, 'https://api.example.com')).toBe('direct');
    expect(via({ HTTPS_PROXY: 'http://s:1' }, 'http://api.example.com')).toBe('direct');
    expect(via({ HTTP_PROXY: 'http://h:1', HTTPS_PROXY: 'http://s:1' }, 'https://api.example.com')).toBe('http://s:1 HTTPS_PROXY');
    expect(via({ HTTP_PROXY: 'http://h:1', HTTPS_PROXY: 'http://s:1' }, 'http://api.example.com')).toBe('http://h:1 HTTP_PROXY');
  });

  it('lower case first; an empty variable counts as unset; ALL_PROXY when a scheme has none', () => {
    expect(via({ https_proxy: 'http://low:1', HTTPS_PROXY: 'http://up:1' }, 'https://a.example')).toBe('http://low:1 https_proxy');
    expect(via({ https_proxy: '', HTTPS_PROXY: 'http://up:1' }, 'https://a.example')).toBe('http://up:1 HTTPS_PROXY');
    expect(via({ ALL_PROXY: 'http://all:1' }, 'https://a.example')).toBe('http://all:1 ALL_PROXY');
    expect(via({ ALL_PROXY: 'http://all:1' }, 'http://a.example')).toBe('http://all:1 ALL_PROXY');
    expect(via({ all_proxy: 'http://low:1', ALL_PROXY: 'http://up:1' }, 'http://a.example')).toBe('http://low:1 all_proxy');
    expect(via({ ALL_PROXY: 'http://all:1', HTTPS_PROXY: 'http://s:1' }, 'https://a.example')).toBe('http://s:1 HTTPS_PROXY');
    expect(via({ ALL_PROXY: 'http://all:1', HTTPS_PROXY: 'http://s:1' }, 'http://a.example')).toBe('http://all:1 ALL_PROXY');
  });

  it('upper-case HTTP_PROXY is read, except in a CGI script (where it would be the request`s Proxy: header)', () => {
    expect(via({ HTTP_PROXY: 'http://h:1' }, 'http://a.example')).toBe('http://h:1 HTTP_PROXY');
    expect(via({ HTTP_PROXY: 'http://h:1', REQUEST_METHOD: 'GET' }, 'http://a.example')).toBe('direct');
    expect(via({ http_proxy: 'http://h:1', REQUEST_METHOD: 'GET' }, 'http://a.example')).toBe('http://h:1 http_proxy');
  });

  it('no proxy variable: no settings at all', () => {
    expect(proxySettings({ NO_PROXY: 'x', PATH: '/bin' })).toBeUndefined();
  });
});

describe('the proxy URL', () => {
  it('without a scheme is http://; without a port 1080 (http://) or 443 (https://); a written :80 stays', () => {
    expect(via({ HTTPS_PROXY: 'proxy.corp:3128' }, 'https://a.example')).toBe('http://proxy.corp:3128 HTTPS_PROXY');
    expect(via({ HTTPS_PROXY: 'http://proxy.corp' }, 'https://a.example')).toBe('http://proxy.corp:1080 HTTPS_PROXY');
    expect(via({ HTTPS_PROXY: 'https://proxy.corp/' }, 'https://a.example')).toBe('https://proxy.corp:443 HTTPS_PROXY');
    expect(via({ HTTPS_PROXY: 'http://proxy.corp:80' }, 'https://a.example')).toBe('http://proxy.corp:80 HTTPS_PROXY');
    expect(via({ HTTPS_PROXY: 'http://u:p@[::1]:3128' }, 'https://a.example')).toBe('http://[::1]:3128 HTTPS_PROXY');
  });

  it('user:password@ becomes Proxy-Authorization: Basic, percent-decoded, and leaves the origin', () => {
    const proxy = proxySettings({ HTTPS_PROXY: 'http://corp%5Cme:p%40ss%3Aw%25rd@proxy.corp:3128' })!.https!;
    expect(proxy.origin).toBe('http://proxy.corp:3128');
    expect(Buffer.from(proxy.authorization!.replace(/^Basic /, ''), 'base64').toString()).toBe('corp\\me:p@ss:w%rd');
    expect(proxySettings({ HTTPS_PROXY: 'http://me@proxy.corp:3128' })!.https!.authorization).toBe(`Basic ${Buffer.from('me:').toString('base64')}`);
  });

  it('a bad one is a usage error naming the variable, never repeating the value (it may hold a password)', () => {
    const problem = (env: Record<string, string>) => {
      try {
        proxySettings(env);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      return 'no error';
    };
    expect(problem({ HTTPS_PROXY: 'socks5://me:secret@proxy:1080' })).toBe(
      'HTTPS_PROXY: socks5:// proxies are not supported; give an HTTP proxy: http://[user:password@]host[:port] (or https://)',
    );
    expect(problem({ http_proxy: 'http://me:secret@' })).toBe('http_proxy is not a proxy URL: http://[user:password@]host[:port] (or https://)');
    expect(problem({ ALL_PROXY: 'http://me:bad%zzsecret@proxy:1' })).toMatch(/^ALL_PROXY: the user or password in it has a bad percent-escape/);
  });
});

describe('NO_PROXY', () => {
  const env = (noProxy: string) => ({ HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1', NO_PROXY: noProxy });

  it('a name matches itself and its subdomains, with or without a leading dot or *., in any case', () => {
    for (const entry of ['example.com', '.example.com', '*.example.com', 'EXAMPLE.com']) {
      expect(via(env(entry), 'https://example.com'), entry).toBe('direct');
      expect(via(env(entry), 'https://API.example.com'), entry).toBe('direct');
      expect(via(env(entry), 'https://notexample.com'), entry).toBe('http://p:1 HTTPS_PROXY');
    }
  });

  it('lists split on commas and spaces; * alone bypasses everything', () => {
    expect(via(env('a.test, example.com'), 'https://x.example.com')).toBe('direct');
    expect(via(env('a.test example.com'), 'https://x.example.com')).toBe('direct');
    expect(via(env('*'), 'https://anything.example')).toBe('direct');
    expect(via(env(''), 'https://anything.example')).toBe('http://p:1 HTTPS_PROXY');
  });

  it('host:port matches that port only (the scheme`s default when the URL has none)', () => {
    expect(via(env('example.com:8443'), 'https://example.com:8443')).toBe('direct');
    expect(via(env('example.com:8443'), 'https://example.com')).toBe('http://p:1 HTTPS_PROXY');
    expect(via(env('example.com:443'), 'https://example.com')).toBe('direct');
    expect(via(env('[::1]:8080'), 'http://[::1]:8080')).toBe('direct');
  });

  it('addresses and CIDR ranges match IP targets; an address is never a domain suffix', () => {
    expect(via(env('127.0.0.0/8'), 'https://127.0.0.1:9')).toBe('direct');
    expect(via(env('10.0.0.0/8'), 'https://127.0.0.1:9')).toBe('http://p:1 HTTPS_PROXY');
    expect(via(env('10.1.2.3'), 'https://10.1.2.3')).toBe('direct');
    expect(via(env('.2.3'), 'https://10.1.2.3')).toBe('http://p:1 HTTPS_PROXY');
    expect(via(env('::1'), 'https://[::1]:9')).toBe('direct');
    expect(via(env('fd00::/8'), 'https://[fd12::5]')).toBe('direct');
    expect(via(env('fd00::/8'), 'https://[fe80::5]')).toBe('http://p:1 HTTPS_PROXY');
  });

  it('lower-case no_proxy first, like the proxies', () => {
    expect(via({ HTTPS_PROXY: 'http://p:1', no_proxy: 'a.example', NO_PROXY: 'b.example' }, 'https://b.example')).toBe('http://p:1 HTTPS_PROXY');
    expect(via({ HTTPS_PROXY: 'http://p:1', no_proxy: 'a.example', NO_PROXY: 'b.example' }, 'https://a.example')).toBe('direct');
  });
});
