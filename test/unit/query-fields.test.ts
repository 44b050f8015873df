// The walk of a --query's syntax tree for the field names it reads (output/query-fields.ts),
// on trees from the JMESPath library's own parser, against campaigns' shape from their schema.
import { compile } from '@jmespath-community/jmespath';
import { describe, expect, it } from 'vitest';
import { closest, unknownFields, type FieldShape } from '../../src/output/query-fields.js';
import { itemFields, unknownFieldText } from '../../src/output/item-fields.js';
import { jsonFlagArgv } from '../../src/commands/json-flag.js';
import type { CommandSpec } from '../../src/commands/spec.js';

const campaigns = itemFields('campaigns');
const list: FieldShape = [campaigns.shape];
const unknownIn = (query: string, root: FieldShape = list) => unknownFields(compile(query), root).map((u) => (u.parent ? `${u.parent}.${u.name}` : u.name));

describe('unknownFields', () => {
  it.each([
    ["[?status=='active'].campaign_id", ['status']],
    ["[?configured_status=='CAMPAIGN_CONFIGURED_STATUS_ACTIVE'].campaign_id", []],
    ['[*].nmae', ['nmae']],
    ['[].name', []],
    ['[0].budget.total.amount_e5', []],
    ['[0].budget.total.amount', ['budget.total.amount']],
    ['[0:5].{id: campaign_id, s: state}', ['state']],
    ['sort_by(@, &updated)[0].name', ['updated']],
    ['max_by(@, &to_number(budget.total.amount_e5)).name', []],
    ['reverse(@)[0].nam', ['nam']],
    ['[].ad_groups[].ad_group_id', []],
    ['[].ad_groups[].id', ['ad_groups.id']],
    ['[?starts_with(name, `"Spring"`) && !(effective_status == `null`)].campaign_id', []],
    ['[?a || b].c', ['a', 'b', 'c']],
    ['length(@)', []],
    ['$[0].nme', ['nme']],
  ])('%s reads %j that campaigns lack', (query, unknown) => {
    expect(unknownIn(query)).toEqual(unknown);
  });

  it('reads only what it is sure of: not through variables, literals or unknown values', () => {
    expect(unknownIn('let $c = @ in $c[0].nope')).toEqual([]);
    expect(unknownIn('`{"a": 1}`.nope')).toEqual([]);
    expect(unknownIn('[0].permissions.nope')).toEqual([]);
    // A field of the list itself is null on every list: not a field of an item either, so not judged.
    expect(unknownIn('name')).toEqual([]);
  });

  it('one item (a view) is read as an object', () => {
    expect(unknownIn('status', campaigns.shape)).toEqual(['status']);
    expect(unknownIn('budget.unit', campaigns.shape)).toEqual([]);
  });
});

describe('the message', () => {
  const text = (query: string) => unknownFieldText(unknownFields(compile(query), list)[0]!, campaigns);
  it('names the column a table word is, and the API field it shows', () => {
    expect(text('[?status==`"active"`]')).toBe(
      "`status` is not a field of campaigns: the STATUS column is `configured_status` (JSON and --query read the API's fields)",
    );
    expect(text('[].unit')).toBe("`unit` is not a field of campaigns: the UNIT column is `budget.unit` (JSON and --query read the API's fields)");
  });
  it('else the closest field, else the fields', () => {
    expect(text('[].campaignid')).toBe('`campaignid` is not a field of campaigns: did you mean `campaign_id`?');
    expect(text('[].zzzzzz')).toMatch(/^`zzzzzz` is not a field of campaigns \(its fields: campaign_id, name, /);
  });
  it('closest: a name inside another counts as near', () => {
    expect(closest('status', ['configured_status', 'name'])).toBe('configured_status');
    expect(closest('qqq', ['name'])).toBeUndefined();
  });
});

describe('--json FIELDS on the command line', () => {
  const tree: CommandSpec[] = [
    {
      name: 'ads',
      summary: '',
      subcommands: [
        { name: 'campaigns', summary: '', subcommands: [{ name: 'list', summary: '' }] },
        { name: 'config', summary: '', args: [{ name: 'key', description: '', choices: ['account'] }] },
      ],
    },
  ];
  it.each([
    [
      ['ads', 'campaigns', 'list', '--json', 'campaign_id,name'],
      ['ads', 'campaigns', 'list', '--json=campaign_id,name'],
    ],
    [
      ['--json', 'ads', 'campaigns', 'list'],
      ['ads', 'campaigns', 'list', '--json'],
    ],
    [
      ['--json', 'name', 'ads', 'campaigns', 'list'],
      ['--json=name', 'ads', 'campaigns', 'list'],
    ],
    [
      ['ads', 'campaigns', 'list', '--json', '0b9c-id'],
      ['ads', 'campaigns', 'list', '0b9c-id', '--json'],
    ],
    [
      ['ads', 'config', '--json', 'account'],
      ['ads', 'config', 'account', '--json'],
    ],
    [
      ['ads', '--json', 'x', '--', 'y'],
      ['ads', '--json=x', '--', 'y'],
    ],
    [
      ['ads', '--json', '--', 'y'],
      ['ads', '--json', '--', 'y'],
    ],
  ])('%j is read as %j', (argv, read) => {
    expect(jsonFlagArgv(argv, tree)).toEqual(read);
  });
});
