import { describe, expect, it } from 'vitest';
import * as ads from '../../src/schemas/ads.js';
import * as limits from '../../src/schemas/limits.js';

// limits.ts exists so that the command tree names these without loading zod; until
// schemas/ads.ts re-exports them from there, this keeps the two copies equal.
describe('ads limits', () => {
  it('are the same in the zod-free module and the schemas', () => {
    for (const [name, value] of Object.entries(limits)) expect(ads[name as keyof typeof ads], name).toBe(value);
  });
});
