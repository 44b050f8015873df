import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/api/redact.js';

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
});
