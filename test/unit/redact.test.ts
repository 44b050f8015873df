import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/http/redact.js';

describe('Redactor', () => {
  const redactor = new Redactor();
  redactor.add('s3cr3t-value');

  it('masks credential headers but keeps the scheme', () => {
    expect(redactor.header('Authorization', 'Bearer abc.def')).toBe('Bearer [REDACTED]');
    expect(redactor.header('content-type', 'application/json')).toBe('application/json');
  });

  it('masks credential fields in JSON and form bodies, and known secrets anywhere', () => {
    expect(redactor.text('{"access_token":"tok\\"en","scope":"a"}')).toBe('{"access_token":"[REDACTED]","scope":"a"}');
    expect(redactor.text('grant_type=client_credentials&client_secret=abc&scope=x')).toBe('grant_type=client_credentials&client_secret=[REDACTED]&scope=x');
    expect(redactor.text('echo s3cr3t-value twice s3cr3t-value')).toBe('echo [REDACTED] twice [REDACTED]');
  });

  it('keeps ordinary fields such as an API error code readable', () => {
    expect(redactor.text('{"code":"PermissionDenied","message":"the token lacks scope x"}')).toBe(
      '{"code":"PermissionDenied","message":"the token lacks scope x"}',
    );
    // The OAuth code in a token request form is still masked.
    expect(redactor.text('grant_type=authorization_code&code=abc123&redirect_uri=x')).toBe('grant_type=authorization_code&code=[REDACTED]&redirect_uri=x');
  });

  it('masks any header whose name says authorization, token, secret, key, cookie or signature', () => {
    for (const name of ['X-Api-Key', 'X-Auth-Token', 'X-Client-Secret', 'Cookie', 'Proxy-Authorization', 'X-Platform-Signature']) {
      expect(redactor.header(name, 'plain-value-1234')).toBe('[REDACTED]');
    }
    expect(redactor.header('X-Request-Id', 'req-1')).toBe('req-1');
  });
});
