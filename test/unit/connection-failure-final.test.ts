// Which connection failures are retried (retry.ts isFinalConnectionFailure) and how each reads
// (connection-failure.ts): only what another attempt cannot fix soon fails at once.
import { describe, expect, it } from 'vitest';
import { describeConnectionFailure } from '../../src/http/connection-failure.js';
import { isFinalConnectionFailure, isLoopbackHost } from '../../src/http/retry.js';
import { classify } from '../../src/webhooks/delivery.js';

/** A Node connect or lookup error as undici passes it on. */
const failure = (code: string, fields: Record<string, unknown> = {}) => Object.assign(new Error(`connect ${code}`), { code, ...fields });

describe('a connection failure that is not retried', () => {
  it('a refused loopback address: by the URL (127.0.0.0/8, ::1, localhost) or by the address a name went to', () => {
    for (const url of ['http://127.0.0.1:4010', 'http://127.8.9.10:1', 'http://[::1]:4010', 'http://localhost:4010', 'http://api.localhost:1']) {
      expect(isFinalConnectionFailure(failure('ECONNREFUSED'), url, false), url).toBe(true);
    }
    expect(isFinalConnectionFailure(failure('ECONNREFUSED', { address: '127.0.0.1' }), 'http://dev.example:8080', false)).toBe(true);
    // Node tried each address of the name in turn (autoSelectFamily): all of them on this machine.
    const both = Object.assign(new AggregateError([failure('ECONNREFUSED', { address: '::1' }), failure('ECONNREFUSED', { address: '127.0.0.1' })]), {
      code: 'ECONNREFUSED',
    });
    expect(isFinalConnectionFailure(both, 'http://dev.example:8080', false)).toBe(true);
    // Wrapped the way undici wraps it.
    expect(isFinalConnectionFailure(Object.assign(new Error('fetch failed'), { cause: failure('ECONNREFUSED') }), 'http://127.0.0.1:1', false)).toBe(true);
  });

  it('a refused connection through a proxy (it is the proxy that refused), and a name that does not exist', () => {
    expect(isFinalConnectionFailure(failure('ECONNREFUSED', { address: '10.0.0.8' }), 'https://api.example.com', true)).toBe(true);
    expect(isFinalConnectionFailure(failure('ENOTFOUND', { hostname: 'api.example.invalid' }), 'https://api.example.invalid', false)).toBe(true);
  });

  it('retried: a remote host that refuses (a server restarting), a resolver that did not answer, resets and timeouts', () => {
    expect(isFinalConnectionFailure(failure('ECONNREFUSED', { address: '10.0.0.8' }), 'https://api.example.com', false)).toBe(false);
    const mixed = Object.assign(new AggregateError([failure('ECONNREFUSED', { address: '127.0.0.1' }), failure('ECONNREFUSED', { address: '10.0.0.8' })]), {
      code: 'ECONNREFUSED',
    });
    expect(isFinalConnectionFailure(mixed, 'https://api.example.com', false)).toBe(false);
    for (const code of ['EAI_AGAIN', 'ECONNRESET', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET']) {
      expect(isFinalConnectionFailure(failure(code), 'http://127.0.0.1:4010', true), code).toBe(false);
    }
  });

  it('loopback hosts', () => {
    expect(['127.0.0.1', '127.255.0.1', '::1', '[::1]', '::ffff:127.0.0.1', 'LOCALHOST', 'a.localhost'].filter((h) => !isLoopbackHost(h))).toEqual([]);
    expect(['128.0.0.1', '10.0.0.1', 'localhost.example.com', 'mylocalhost', '::2', '0.0.0.0'].filter(isLoopbackHost)).toEqual([]);
  });
});

describe('how a failure reads', () => {
  it('a refused connection (the proxy`s when one is used), a name that does not resolve, else the code', () => {
    expect(describeConnectionFailure(failure('ECONNREFUSED'))).toBe('connection refused (ECONNREFUSED)');
    expect(describeConnectionFailure(failure('ECONNREFUSED'), true)).toBe('the proxy refused the connection (ECONNREFUSED)');
    expect(describeConnectionFailure(failure('ENOTFOUND', { hostname: 'api.example.invalid' }))).toBe(
      'the name api.example.invalid does not resolve (ENOTFOUND)',
    );
    expect(describeConnectionFailure(failure('ECONNRESET'))).toBe('ECONNRESET');
  });
});

describe('a webhook send (trigger, replay) that failed without an answer', () => {
  it('is retried, unless nothing can succeed soon (a refusing proxy, a name that does not resolve)', () => {
    expect(classify({ error: 'ECONNREFUSED' })).toBe('retry');
    expect(classify({ error: 'the proxy refused the connection (ECONNREFUSED) (proxy http://127.0.0.1:9 from HTTPS_PROXY)', final: true })).not.toBe('retry');
  });
});
