import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeChanges, isUnchanged } from '../../src/bulk/changes/diff.js';

// Values shaped like ads resources: nested objects, arrays of criteria, match types in both spellings.
const leaf = fc.oneof(fc.constantFrom('EXACT', 'MATCH_TYPE_EXACT', 'BROAD', 'a', ''), fc.integer({ min: 0, max: 3 }), fc.boolean(), fc.constant(null));
const key = fc.constantFrom('name', 'budget', 'unit', 'total', 'amount_e5', 'match_type', 'criteria', 'ad_subjects', 'subjects');
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, fc.dictionary(key, tie('node'), { maxKeys: 3 }), fc.array(tie('node'), { maxLength: 2 })),
})).node;
const resource = fc.dictionary(key, value, { maxKeys: 4 });

describe('isUnchanged', () => {
  it('agrees with describeChanges finding nothing to change (property)', () => {
    fc.assert(
      fc.property(resource, resource, fc.boolean(), (item, current, copy) => {
        const wanted = { id: 'x', ...(copy ? { ...current, ...item } : item) }; // a patch item always has its id
        expect(isUnchanged(wanted, current, 'id')).toBe(describeChanges(wanted, current, 'id').length === 0);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a response match type in the input spelling, and ad_subjects from subjects', () => {
    expect(
      isUnchanged(
        { id: 'x', targeting: { criteria: [{ keyword_targeting: { match_type: 'EXACT' } }] } },
        { targeting: { criteria: [{ keyword_targeting: { match_type: 'MATCH_TYPE_EXACT' } }] } },
        'id',
      ),
    ).toBe(true);
    expect(isUnchanged({ id: 'x', ad_subjects: { stores: { store_ids: ['s'] } } }, { subjects: { stores: { store_ids: ['s'] } } }, 'id')).toBe(true);
    expect(isUnchanged({ id: 'x', name: 'new' }, { name: 'old' }, 'id')).toBe(false);
  });
});
