// The contract gate reads the vendored OpenAPI; this keeps it the public text (SOURCE.md).
import crypto from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_PATH } from '../helpers/contract/openapi.js';

describe('the vendored ads OpenAPI', () => {
  it('lives in the repository and is byte for byte the public copy SOURCE.md names', () => {
    const bytes = fs.readFileSync(OPENAPI_PATH);
    const source = fs.readFileSync(new URL('../contract/SOURCE.md', import.meta.url), 'utf8');
    const recorded = /SHA-256: `([0-9a-f]{64})`/.exec(source)?.[1];
    expect(recorded).toMatch(/^[0-9a-f]{64}$/);
    expect(crypto.createHash('sha256').update(bytes).digest('hex')).toBe(recorded);
    expect(JSON.parse(bytes.toString('utf8')).info.title).toBe('Uber Ads API');
  });
});
