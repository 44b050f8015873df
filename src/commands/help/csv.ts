// `platform help csv`: the CSV columns of --from-csv (and of list -o csv), per resource, and
// what the field flags' one line of --help leaves out.
import { columnsHelp } from '../../bulk/input/csv-columns.js';
import { table, type HelpTopic } from './topic.js';

const flagNotes: Array<[string, string]> = [
  ['--budget', 'converted exactly to amount_e5 = amount x 10^5 (the spec leaves the scale open, the field name states it)'],
  ['--budget-e5', 'the raw amount_e5 integer, e.g. 1234000 for 12.34'],
  ['--currency', "a patch: the resource's own when not given (another one is refused)"],
  ['--bid', 'sets manual bidding'],
  ['--roas-goal', 'the return on ad spend to aim for, instead of --bid or --auto-bid'],
  ['--daypart', 'days are mon..sun, ranges (mon-fri) or lists (sat,sun); 24:00 ends the day; repeat the flag for more entries'],
  ['--no-platform-one', 'stop targeting Platform One members; the other targeting criteria stay'],
  ['--clear FIELD', 'sends the field empty: the API removes it whole'],
];

export const csvTopic: HelpTopic = {
  name: 'csv',
  summary: 'CSV columns and field flags of ads resources',
  text: () =>
    `The columns --from-csv reads are the ones list -o csv writes, so platform ads ... list -o csv | (edit) | platform ads ... patch --from-csv - round-trips.

Campaigns (platform ads campaigns create|patch):
${columnsHelp('campaigns')}

Ad groups (platform ads ad-groups create|patch):
${columnsHelp('ad_groups')}

Ads (platform ads ads patch):
${columnsHelp('ads')}

The field flags of create and patch set the same fields; what their one line of --help leaves out:
${table(flagNotes)}
`,
};
