import { describe, expect, it } from 'vitest';
import { parseFields, toBody, toQuery } from '../../src/commands/api/fields.js';
import type { Context } from '../../src/context.js';
import { UsageError } from '../../src/base/errors.js';

// No field here reads a file, so the context is never used.
const ctx = {} as Context;
const body = async (raw: string[], typed: string[] = []) => toBody(await parseFields(ctx, raw, typed));

describe('platform api fields', () => {
  it('-f keeps strings; -F types numbers, booleans and null, and keeps unsafe integers as strings', async () => {
    expect(await body(['a=1', 'b=true'], ['n=12', 'f=-1.5', 't=true', 'z=null', 's=text', 'big=123456789012345678901', 'lead=007'])).toEqual({
      a: '1',
      b: 'true',
      n: 12,
      f: -1.5,
      t: true,
      z: null,
      s: 'text',
      big: '123456789012345678901',
      lead: '007',
    });
  });

  it('nests a[b], appends a[], and builds lists of objects with a[][b]', async () => {
    expect(
      await body(['o[x][y]=1', 'l[]=a', 'l[]=b', 'items[][name]=a', 'items[][id]=1', 'items[][name]=b', 'items[][budget][unit]=u', 'items[][budget][total]=t']),
    ).toEqual({
      o: { x: { y: '1' } },
      l: ['a', 'b'],
      items: [
        { name: 'a', id: '1' },
        { name: 'b', budget: { unit: 'u', total: 't' } },
      ],
    });
  });

  it('makes query parameters, repeating name[] and refusing nesting', async () => {
    expect(toQuery(await parseFields(ctx, ['a=1', 'l[]=x', 'l[]=y']))).toEqual({ a: ['1'], l: ['x', 'y'] });
    await expect(async () => toQuery(await parseFields(ctx, ['o[x]=1']))).rejects.toThrow(UsageError);
  });

  it('refuses fields without a name or =, and a value that is also an object', async () => {
    await expect(parseFields(ctx, ['=1'])).rejects.toThrow(UsageError);
    await expect(parseFields(ctx, ['novalue'])).rejects.toThrow(UsageError);
    await expect(parseFields(ctx, ['a]b=1'])).rejects.toThrow(UsageError);
    await expect(body(['a=1', 'a[b]=2'])).rejects.toThrow(UsageError);
  });
});
