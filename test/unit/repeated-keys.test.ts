import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findRepeatedKey, RepeatedKeyWatch } from '../../src/bulk/input/repeated-keys.js';

const find = (text: string) => findRepeatedKey(text, JSON.parse(text));

describe('findRepeatedKey', () => {
  it('finds a key given twice in one object, and the line of its second occurrence', () => {
    expect(find('{"campaign_id":"a","campaign_id":"b"}')).toEqual({ key: 'campaign_id', line: 0 });
    expect(find('[\n  {"a": 1},\n  {\n    "b": {"c": 1,\n "c": 2}\n  }\n]')).toEqual({ key: 'c', line: 4 });
  });

  it('does not confuse the same key in different objects, or ": inside strings, with a repeat', () => {
    expect(find('[{"a":1},{"a":2,"b":{"a":3}}]')).toBeUndefined();
    expect(find('{"name":"x\\": y\\":","note":"\\":"}')).toBeUndefined();
  });

  it('never reports a repeat in what JSON.stringify writes, and always finds one added (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, key) => {
        const text = JSON.stringify(value);
        expect(find(text)).toBeUndefined();
        const repeated = `{${JSON.stringify(key)}:${text},"x":[${text}],${JSON.stringify(key)}:1}`;
        expect(find(repeated)?.key).toBe(key);
      }),
    );
  });
});

describe('RepeatedKeyWatch', () => {
  it('names the array item a repeated key is in, from stream-json tokens', async () => {
    const { default: parser } = await import('stream-json/index.js');
    const tokens: Array<{ name: string; value?: unknown }> = [];
    const stream = parser();
    stream.on('data', (token: { name: string; value?: unknown }) => tokens.push(token));
    const done = new Promise((resolve) => stream.on('end', resolve));
    stream.end('[{"a":1,"s":"x"}, 7, "text", {"b":{"b":1}}, {"c":1,"d":[{"c":2}],"c":3}]');
    await done;
    const watch = new RepeatedKeyWatch();
    const found = tokens.map((t) => watch.token(t.name, t.value)).filter(Boolean);
    expect(found).toEqual([{ key: 'c', item: 5 }]);
  });
});
