// One declaration per ads field: its flag(s), CSV column, API path, type, parser and merge
// rule. The command specs (flags and their types), the flags -> CSV cells mapping, the CSV
// column docs, the row mapping and the patch merge are derived from these tables. Plain data
// in the base layer, so commands, bulk and output may all import it, and `--help` loads it
// without zod: a parser is named here, and implemented in ads-field-parsers.ts (a name
// without an implementation fails typecheck there).

export type AdsFieldResource = 'campaigns' | 'ad_groups' | 'ads';
export type FieldMode = 'create' | 'patch';

/** A command-line flag of a field; the same shape the command specs take (src/commands/spec.ts). */
export interface FieldFlag {
  readonly flags: string;
  /** One line of --help (about 48 columns); what more there is to say goes in `platform help csv` (commands/help/csv.ts). */
  readonly description: string;
  readonly kind?: 'list' | 'repeat';
  readonly choices?: readonly string[];
  readonly default?: string;
  /** The description a patch shows instead (e.g. `new ad name`). */
  readonly patchDescription?: string;
  /** Values shell completion offers; the command checks them, naming the flag. */
  readonly completions?: readonly string[];
}

/** What a cell parses to (src/schemas/ads-field-parsers.ts implements each). */
export type ParserName =
  | 'text'
  | 'campaignStatus'
  | 'adGroupStatus'
  | 'decimalAmount'
  | 'amountE5'
  | 'currency'
  | 'budgetUnit'
  | 'adProduct'
  | 'bidding'
  | 'time'
  | 'list'
  | 'matchType'
  | 'boolean'
  | 'presence'
  | 'number'
  | 'dayparting';

/**
 * How a patch applies the field. replace: sent as given. merge: merged into the current
 * nested object, which the API replaces whole (an amount keeps the budget's unit, an end
 * keeps the schedule's start). sibling: one part of the current targeting, the other
 * criteria and settings kept.
 */
export type MergeRule = 'replace' | 'merge' | 'sibling';

/**
 * The row-mapping step that reads the field's cell: a named part for fields that depend on
 * others (a budget needs its currency and unit), `path` for a field set on its own at its
 * API path by its parser.
 */
export type MappingPart = 'id' | 'name' | 'status' | 'budget' | 'adProduct' | 'bidding' | 'targeting' | 'stores' | 'dayparting' | 'schedule' | 'path';

export interface AdsField {
  /** The CSV column (and `list -o csv` column). A dotted column is an API path given as is. */
  readonly column: string;
  /** The column's line in the "CSV columns" help; without it the column is listed among the dotted paths. */
  readonly help?: string;
  /** The flag that fills the column. */
  readonly flag?: FieldFlag;
  /** The `--no-x` of a boolean pair (patch only): fills the column with false. */
  readonly negated?: FieldFlag;
  /** The cell a boolean flag writes when given (default `true`). */
  readonly cell?: string;
  /** The commands that take the flag (default both). */
  readonly modes?: readonly FieldMode[];
  /** Where the value goes in the API body; `criteria.x` is the targeting criterion with key x. Several: the first present. */
  readonly paths: readonly string[];
  readonly type: 'string' | 'boolean' | 'number' | 'string[]' | 'object';
  readonly parser: ParserName;
  readonly part: MappingPart;
  readonly merge: MergeRule;
  /** Not a field of the body: the id of the item, or of its parent. */
  readonly role?: 'id' | 'parent';
  /** The header of the field's column in `list` (its CSV name is `column`); the view renders it (output/views/ads.ts). */
  readonly list?: string;
  /** The label the field is shown under by `view` (several fields may share one, e.g. Budget). */
  readonly view?: string;
  /**
   * The update's nested object that an empty object clears, as the OpenAPI's text says
   * ("Providing an empty budget removes the budget"): `--clear NAME` and a CSV cell `[]` in
   * this column send it as `{}` (a patch).
   */
  readonly clears?: ClearableField;
}

/** The update fields the OpenAPI's text says an empty object clears. */
export type ClearableField = 'budget' | 'targeting' | 'dayparting_schedule';

/** The cell that clears its column's field (as Google Ads Editor writes it); an empty cell leaves it unchanged. */
export const CLEAR_CELL = '[]';

/** A table, its entries' literal types kept (the flags types are derived from them). */
function fields<const T extends readonly AdsField[]>(...entries: T): T {
  return entries;
}

const money = fields(
  {
    column: 'budget',
    help: 'budget as a decimal (exact, x 10^5 = amount_e5); needs currency and budget_unit',
    flag: {
      flags: '--budget <amount>',
      description: 'budget as a decimal, e.g. 12.34 (exact)',
    },
    paths: ['budget.total.amount_e5'],
    type: 'string',
    parser: 'decimalAmount',
    part: 'budget',
    merge: 'merge',
    clears: 'budget',
    list: 'BUDGET',
    view: 'Budget',
  },
  {
    column: 'budget_e5',
    help: 'budget as the raw amount_e5 integer (instead of budget)',
    flag: { flags: '--budget-e5 <amount_e5>', description: 'budget as the raw amount_e5, e.g. 1234000' },
    paths: ['budget.total.amount_e5'],
    type: 'string',
    parser: 'amountE5',
    part: 'budget',
    merge: 'merge',
    clears: 'budget',
    view: 'Budget',
  },
  {
    column: 'currency',
    help: 'ISO 4217 currency of budget and bid, e.g. USD',
    flag: { flags: '--currency <code>', description: 'ISO 4217 code of --budget/--bid, e.g. USD' },
    paths: ['budget.total.currency_code', 'bidding.manual.bid_amount.currency_code'],
    type: 'string',
    parser: 'currency',
    part: 'budget',
    merge: 'merge',
    list: 'CURRENCY',
    view: 'Budget',
  },
  {
    column: 'budget_unit',
    help: 'daily, weekly or fixed (or BUDGET_UNIT_*)',
    flag: { flags: '--budget-unit <unit>', description: 'budget period', choices: ['daily', 'weekly', 'fixed'], default: 'daily' },
    paths: ['budget.unit'],
    type: 'string',
    parser: 'budgetUnit',
    part: 'budget',
    merge: 'merge',
    clears: 'budget',
    list: 'UNIT',
    view: 'Budget',
  },
);

const statusFlag = { flags: '--status <status>', description: 'configured status', choices: ['active', 'paused'] } as const;

/** API paths accepted as columns of both campaigns and ad groups, set as given. */
const budgetPaths = fields(
  { column: 'budget.unit', paths: ['budget.unit'], type: 'string', parser: 'text', part: 'path', merge: 'replace' },
  { column: 'budget.total.amount_e5', paths: ['budget.total.amount_e5'], type: 'string', parser: 'text', part: 'path', merge: 'replace' },
  { column: 'budget.total.currency_code', paths: ['budget.total.currency_code'], type: 'string', parser: 'text', part: 'path', merge: 'replace' },
  { column: 'configured_status', paths: ['configured_status'], type: 'string', parser: 'text', part: 'path', merge: 'replace' },
);

export const CAMPAIGN_FIELDS = fields(
  {
    column: 'campaign_id',
    help: 'the campaign to change (patch; required there)',
    paths: ['campaign_id'],
    type: 'string',
    parser: 'text',
    part: 'id',
    merge: 'replace',
    list: 'ID',
    view: 'ID',
    role: 'id',
  },
  {
    column: 'name',
    help: 'campaign name',
    flag: { flags: '--name <name>', description: 'campaign name' },
    paths: ['name'],
    type: 'string',
    parser: 'text',
    part: 'name',
    merge: 'replace',
    list: 'NAME',
    view: 'Name',
  },
  {
    column: 'status',
    help: 'active or paused (or CAMPAIGN_CONFIGURED_STATUS_*)',
    flag: statusFlag,
    paths: ['configured_status'],
    type: 'string',
    parser: 'campaignStatus',
    part: 'status',
    merge: 'replace',
    list: 'STATUS',
    view: 'Status',
  },
  ...money,
  ...budgetPaths,
);

export const AD_GROUP_FIELDS = fields(
  {
    column: 'ad_group_id',
    help: 'the ad group to change (patch; required there)',
    paths: ['ad_group_id'],
    type: 'string',
    parser: 'text',
    part: 'id',
    merge: 'replace',
    list: 'ID',
    view: 'ID',
    role: 'id',
  },
  {
    column: 'campaign_id',
    help: "the ad group's campaign (default: --campaign)",
    paths: ['campaign_id'],
    type: 'string',
    parser: 'text',
    part: 'id',
    merge: 'replace',
    list: 'CAMPAIGN',
    view: 'Campaign',
    role: 'parent',
  },
  {
    column: 'ad_product',
    help: 'listing or search (create; default listing)',
    flag: { flags: '--ad-product <product>', description: 'ad product', choices: ['listing', 'search'], default: 'listing' },
    modes: ['create'],
    paths: ['ad_product'],
    type: 'string',
    parser: 'adProduct',
    part: 'adProduct',
    merge: 'replace',
    list: 'PRODUCT',
    view: 'Product',
  },
  {
    column: 'name',
    help: 'ad group name',
    flag: { flags: '--name <name>', description: 'ad group name' },
    paths: ['name'],
    type: 'string',
    parser: 'text',
    part: 'name',
    merge: 'replace',
    list: 'NAME',
    view: 'Name',
  },
  {
    column: 'status',
    help: 'active or paused (or AD_GROUP_CONFIGURED_STATUS_*)',
    flag: statusFlag,
    paths: ['configured_status'],
    type: 'string',
    parser: 'adGroupStatus',
    part: 'status',
    merge: 'replace',
    list: 'STATUS',
    view: 'Status',
  },
  ...money,
  {
    column: 'bid',
    help: 'manual bid as a decimal in currency (sets manual bidding)',
    flag: { flags: '--bid <amount>', description: 'manual bid as a decimal in --currency' },
    paths: ['bidding.manual.bid_amount.amount_e5'],
    type: 'string',
    parser: 'decimalAmount',
    part: 'bidding',
    merge: 'replace',
    list: 'BID',
    view: 'Bidding',
  },
  {
    column: 'bidding',
    help: 'auto, or manual (with bid)',
    flag: { flags: '--auto-bid', description: 'automatic bidding' },
    cell: 'auto',
    paths: ['bidding'],
    type: 'object',
    parser: 'bidding',
    part: 'bidding',
    merge: 'replace',
    list: 'BIDDING',
    view: 'Bidding',
  },
  {
    column: 'start_time',
    help: 'schedule start, ISO 8601',
    flag: { flags: '--start <time>', description: 'schedule start, ISO 8601 (create default: now)' },
    paths: ['schedule.start_time'],
    type: 'string',
    parser: 'time',
    part: 'schedule',
    merge: 'merge',
    list: 'START',
    view: 'Schedule',
  },
  {
    column: 'end_time',
    help: 'schedule end, ISO 8601',
    flag: { flags: '--end <time>', description: 'schedule end, ISO 8601 (default: none)' },
    paths: ['schedule.end_time'],
    type: 'string',
    parser: 'time',
    part: 'schedule',
    merge: 'merge',
    list: 'END',
    view: 'Schedule',
  },
  {
    column: 'keywords',
    help: 'keyword targeting, separated by |',
    flag: { flags: '--keywords <list>', description: 'keyword targeting, comma-separated', kind: 'list' },
    paths: ['targeting.criteria.keyword_targeting.keywords'],
    type: 'string[]',
    parser: 'list',
    part: 'targeting',
    merge: 'sibling',
    clears: 'targeting',
    list: 'KEYWORDS',
    view: 'Targeting',
  },
  {
    column: 'match_type',
    help: 'exact or broad',
    flag: { flags: '--match-type <type>', description: 'keyword match type', choices: ['exact', 'broad'] },
    paths: ['targeting.criteria.keyword_targeting.match_type'],
    type: 'string',
    parser: 'matchType',
    part: 'targeting',
    merge: 'sibling',
    clears: 'targeting',
    list: 'MATCH',
    view: 'Targeting',
  },
  {
    column: 'platform_one',
    help: 'true to target Platform One members',
    flag: { flags: '--platform-one', description: 'target Platform One members' },
    negated: { flags: '--no-platform-one', description: 'stop targeting Platform One members' },
    paths: ['targeting.criteria.platform_one'],
    type: 'boolean',
    parser: 'presence',
    part: 'targeting',
    merge: 'sibling',
    clears: 'targeting',
    list: 'PLATFORM ONE',
    view: 'Targeting',
  },
  {
    column: 'targeting.operator',
    flag: { flags: '--target-operator <op>', description: 'how targeting criteria combine', choices: ['AND', 'OR'] },
    paths: ['targeting.operator'],
    type: 'string',
    parser: 'text',
    part: 'path',
    merge: 'sibling',
    clears: 'targeting',
    view: 'Targeting',
  },
  {
    column: 'targeting.negation',
    flag: { flags: '--negate-targeting', description: 'target everyone except the criteria' },
    paths: ['targeting.negation'],
    type: 'boolean',
    parser: 'boolean',
    part: 'path',
    merge: 'sibling',
    clears: 'targeting',
    view: 'Targeting',
  },
  {
    column: 'store_ids',
    help: 'store ids separated by |',
    flag: { flags: '--store-ids <list>', description: 'stores the ad group promotes, comma-separated', kind: 'list' },
    paths: ['ad_subjects.stores.store_ids'],
    type: 'string[]',
    parser: 'list',
    part: 'stores',
    merge: 'replace',
    list: 'STORES',
    view: 'Stores',
  },
  {
    column: 'daypart',
    help: 'dayparting: DAYS=HH:MM-HH:MM entries separated by |, e.g. mon-fri=11:00-14:00|sat=10:00-24:00',
    flag: {
      flags: '--daypart <days=HH:MM-HH:MM>',
      description: 'dayparting, repeatable: mon-fri=11:00-14:00',
      kind: 'repeat',
    },
    paths: ['dayparting_schedule'],
    type: 'object',
    parser: 'dayparting',
    part: 'dayparting',
    merge: 'replace',
    clears: 'dayparting_schedule',
    list: 'DAYPARTING',
    view: 'Dayparting',
  },
  ...budgetPaths,
  {
    column: 'bidding.manual.bid_amount.amount_e5',
    paths: ['bidding.manual.bid_amount.amount_e5'],
    type: 'string',
    parser: 'text',
    part: 'path',
    merge: 'replace',
  },
  {
    column: 'bidding.manual.bid_amount.currency_code',
    paths: ['bidding.manual.bid_amount.currency_code'],
    type: 'string',
    parser: 'text',
    part: 'path',
    merge: 'replace',
  },
  {
    column: 'bidding.goal_based.roas_goal',
    flag: { flags: '--roas-goal <ratio>', description: 'goal-based bidding: return on ad spend, e.g. 4.5' },
    paths: ['bidding.goal_based.roas_goal'],
    type: 'number',
    parser: 'number',
    part: 'path',
    merge: 'replace',
    view: 'Bidding',
  },
  { column: 'schedule.start_time', paths: ['schedule.start_time'], type: 'string', parser: 'text', part: 'path', merge: 'replace' },
  { column: 'schedule.end_time', paths: ['schedule.end_time'], type: 'string', parser: 'text', part: 'path', merge: 'replace' },
  { column: 'ad_subjects.stores.store_ids', paths: ['ad_subjects.stores.store_ids'], type: 'string[]', parser: 'list', part: 'path', merge: 'replace' },
);

export const AD_FIELDS = fields(
  {
    column: 'ad_id',
    help: 'the ad to change (patch; required there)',
    paths: ['ad_id'],
    type: 'string',
    parser: 'text',
    part: 'id',
    merge: 'replace',
    list: 'ID',
    view: 'ID',
    role: 'id',
  },
  {
    column: 'name',
    help: 'ad name',
    flag: { flags: '--name <name>', description: 'ad name', patchDescription: 'new ad name' },
    paths: ['name'],
    type: 'string',
    parser: 'text',
    part: 'name',
    merge: 'replace',
    list: 'NAME',
    view: 'Name',
  },
  {
    column: 'ad_group_id',
    help: "the ad's ad group, as `ads ads list -o csv` writes it (the ad group is --ad-group)",
    paths: ['ad_group_id'],
    type: 'string',
    parser: 'text',
    part: 'id',
    merge: 'replace',
    list: 'AD GROUP',
    view: 'Ad group',
    role: 'parent',
  },
  {
    column: 'campaign_id',
    help: "the ad's campaign, as `ads ads list -o csv` writes it (the campaign is --campaign)",
    paths: ['campaign_id'],
    type: 'string',
    parser: 'text',
    part: 'id',
    merge: 'replace',
    list: 'CAMPAIGN',
    view: 'Campaign',
    role: 'parent',
  },
);

export const ADS_FIELDS = { campaigns: CAMPAIGN_FIELDS, ad_groups: AD_GROUP_FIELDS, ads: AD_FIELDS } as const satisfies Record<
  AdsFieldResource,
  readonly AdsField[]
>;

/**
 * The order of the "CSV columns" help where it differs from the table's (as the help has
 * always shown them); a column not named here follows in the table's order.
 */
export const COLUMN_HELP_ORDER: Record<AdsFieldResource, readonly string[]> = {
  campaigns: [],
  ads: [],
  ad_groups: [
    'ad_group_id',
    'campaign_id',
    'name',
    'ad_product',
    'status',
    'budget',
    'budget_e5',
    'currency',
    'budget_unit',
    'bid',
    'bidding',
    'keywords',
    'match_type',
    'platform_one',
    'store_ids',
    'start_time',
    'end_time',
    'daypart',
    'budget.unit',
    'budget.total.amount_e5',
    'budget.total.currency_code',
    'configured_status',
    'bidding.manual.bid_amount.amount_e5',
    'bidding.manual.bid_amount.currency_code',
    'bidding.goal_based.roas_goal',
    'schedule.start_time',
    'schedule.end_time',
    'targeting.operator',
    'targeting.negation',
  ],
};

/** The table's fields in help order. */
export function fieldsInHelpOrder(resource: AdsFieldResource): readonly AdsField[] {
  const table: readonly AdsField[] = ADS_FIELDS[resource];
  const order = COLUMN_HELP_ORDER[resource];
  const rank = (f: AdsField) => {
    const at = order.indexOf(f.column);
    return at < 0 ? order.length + table.indexOf(f) : at;
  };
  return [...table].sort((a, b) => rank(a) - rank(b));
}

/** The fields of a table that an empty object clears, in the table's order. */
export function clearableFields(table: readonly AdsField[]): ClearableField[] {
  return [...new Set(table.flatMap((f) => (f.clears ? [f.clears] : [])))];
}

/** `--clear FIELD` of a patch whose table has fields to clear: repeatable, checked by the command. */
function clearFlag(table: readonly AdsField[]) {
  const names = clearableFields(table);
  return {
    flags: '--clear <field>',
    description: `remove a field (sends {}; a strict gateway may refuse it: platform help patch), repeatable: ${names.join(', ')}`,
    kind: 'repeat',
    completions: names,
  } as const satisfies FieldFlag;
}
type ClearFlag = ReturnType<typeof clearFlag>;

/**
 * The flags of a table's fields a command of this mode takes, in the table's order, then the
 * `--no-x` of pairs and `--clear` (patch).
 */
export function flagsOf<const T extends readonly AdsField[], M extends FieldMode>(table: T, mode: M): readonly FieldFlagOf<T[number], M>[] {
  const flags: FieldFlag[] = [];
  for (const { flag, modes } of table) {
    if (!flag || !(modes ?? ['create', 'patch']).includes(mode)) continue;
    const { patchDescription, ...spec } = flag;
    flags.push(mode === 'patch' && patchDescription !== undefined ? { ...spec, description: patchDescription } : spec);
  }
  if (mode === 'patch') for (const field of table) if (field.negated) flags.push(field.negated);
  if (mode === 'patch' && clearableFields(table).length) flags.push(clearFlag(table));
  return flags as unknown as readonly FieldFlagOf<T[number], M>[];
}

type ModesOf<F extends AdsField> = F extends { modes: readonly (infer M)[] } ? M : FieldMode;
/** The flag types a field contributes to a command of mode M (its `--no-x` and `--clear` only to a patch). */
export type FieldFlagOf<F extends AdsField, M extends FieldMode> = F extends AdsField
  ? | (M extends ModesOf<F> ? (F extends { flag: infer G extends FieldFlag } ? G : never) : never)
    | (M extends 'patch' ? (F extends { negated: infer N extends FieldFlag } ? N : never) : never)
    | (M extends 'patch' ? (F extends { clears: ClearableField } ? ClearFlag : never) : never)
  : never;
