// What free text the schemas let through (CLI and sandbox alike): names and keywords hold
// any Unicode text but control characters (tab and line breaks are text) and lone surrogates.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CreateCampaignInput } from '../../src/schemas/ads.js';
import { idProblem } from '../../src/schemas/ids.js';
import { shown } from '../../src/schemas/input-limits.js';
import { textProblem } from '../../src/schemas/text.js';

const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const campaign = (name: string) => CreateCampaignInput.safeParse({ name, configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' });

describe('text in names', () => {
  it('any string of code units is refused exactly when it holds a control character or a lone surrogate (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(textProblem(text) !== undefined).toBe(FORBIDDEN.test(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('any string with a NUL or a lone surrogate inserted is refused, the name field named (property)', () => {
    const bad = fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\u001b', '\u0085');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), bad, fc.nat(30), (text, char, at) => {
        const cut = Array.from(text);
        const name = `x${[...cut.slice(0, at), char, ' ', ...cut.slice(at)].join('')}`;
        const result = campaign(name);
        expect(result.success).toBe(false);
        expect(result.error!.issues[0]!.path).toEqual(['name']);
      }),
    );
  });

  it('any valid name is accepted as given, unchanged (property)', () => {
    const name = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }).filter((s) => s.trim() !== '' && !FORBIDDEN.test(s) && s.length <= 255);
    fc.assert(
      fc.property(name, (text) => {
        const result = campaign(text);
        expect(result.success).toBe(true);
        expect(result.data!.name).toBe(text);
      }),
    );
  });

  it('an id with a lone surrogate is refused (it could not be put in a URL)', () => {
    expect(() => encodeURIComponent('\ud800')).toThrow(URIError);
    expect(idProblem('\ud800')).toMatch(/lone surrogate U\+D800/);
    expect(idProblem('ok-😀')).toBeUndefined();
  });
});

describe('shown: values quoted in messages', () => {
  it('quotes short values whole and cuts long ones at 80 characters, giving the length (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (value) => {
        const text = shown(value);
        if (value.length <= 80) expect(text).toBe(JSON.stringify(value));
        else {
          expect(text.endsWith(` (${value.length} characters)`)).toBe(true);
          const quoted = JSON.parse(text.slice(0, text.lastIndexOf(' ('))) as string;
          expect(quoted.length).toBeLessThanOrEqual(80);
          expect(value.startsWith(quoted.slice(0, -1))).toBe(true);
          expect(textProblem(quoted)).toBeUndefined(); // never cut inside a surrogate pair
        }
      }),
    );
  });
});
