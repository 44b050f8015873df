// The fields of the API's items that --query and --json FIELDS may name, checked before
// anything is sent: JSON carries the API's own items (as gh and aws), whose names differ from
// the table's and CSV's (STATUS `active` is `configured_status: CAMPAIGN_CONFIGURED_STATUS_ACTIVE`).
// Loaded only when one of those flags is given: it reads the zod schemas of the items.
import * as z from 'zod';
import { UsageError } from '../base/errors.js';
import type { GlobalOptions } from '../base/io.js';
import { Ad, AdAccount, AdGroup, Campaign, Store } from '../schemas/ads.js';
import { ADS_FIELDS, type AdsField, type AdsFieldResource } from '../schemas/ads-fields.js';
import { closest, unknownFields, type FieldShape, type ObjectShape, type UnknownField } from './query-fields.js';

/** A table or CSV column, and the API path it shows. */
export interface ShownColumn {
  header: string;
  /** Its CSV name. */
  name: string;
  /** The field of the items it shows, as a JMESPath expression. */
  path: string;
}

export interface ItemFields {
  /** Plural noun: "campaigns". */
  noun: string;
  shape: ObjectShape;
  columns: readonly ShownColumn[];
}

/** A schema's fields as a plain shape (what the walk in query-fields.ts reads). */
export function shapeOf(schema: z.ZodType): FieldShape {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return shapeOf(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodObject) {
    return Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, inner]) => [key, shapeOf(inner)]));
  }
  if (schema instanceof z.ZodArray) return [shapeOf(schema.element as z.ZodType)];
  return true;
}

/** The list columns of an ads resource (ads-fields.ts): `criteria.x` paths are an element's key in JMESPath. */
function adsColumns(resource: AdsFieldResource): ShownColumn[] {
  return (ADS_FIELDS[resource] as readonly AdsField[]).flatMap((field) =>
    field.list !== undefined
      ? [{ header: field.list, name: field.column, path: field.paths[0]!.replace('criteria.', 'criteria[].').replace(/^ad_subjects\./, 'subjects.') }]
      : [],
  );
}

const ITEMS = {
  campaigns: () => ({ noun: 'campaigns', schema: Campaign, columns: adsColumns('campaigns') }),
  ad_groups: () => ({ noun: 'ad groups', schema: AdGroup, columns: adsColumns('ad_groups') }),
  ads: () => ({ noun: 'ads', schema: Ad, columns: adsColumns('ads') }),
  stores: () => ({
    noun: 'stores',
    schema: Store,
    columns: ['city', 'region', 'country', 'postal_code', 'latitude', 'longitude'].map((name) => ({
      header: name.toUpperCase(),
      name,
      path: `address.${name}`,
    })),
  }),
  accounts: () => ({ noun: 'ad accounts', schema: AdAccount, columns: [{ header: 'BILLING', name: 'billing_type', path: 'billing.type' }] }),
} satisfies Record<string, () => { noun: string; schema: z.ZodType; columns: ShownColumn[] }>;

export type ItemsName = keyof typeof ITEMS;

export function itemFields(items: ItemsName): ItemFields {
  const { noun, schema, columns } = ITEMS[items]();
  return { noun, shape: shapeOf(schema) as ObjectShape, columns };
}

/** The column a name is the table's or CSV's word for (`status`, `budget`, `unit`), when it is one. */
function columnNamed(name: string, columns: readonly ShownColumn[]): ShownColumn | undefined {
  const lower = name.toLowerCase();
  return columns.find((c) => c.name === lower || c.header.toLowerCase() === lower.replaceAll('_', ' '));
}

/** "`status` is not a field of campaigns: the STATUS column is `configured_status`", or the closest field, or the fields. */
export function unknownFieldText(unknown: UnknownField, fields: ItemFields): string {
  const where = unknown.parent ? `${fields.noun}' ${unknown.parent}` : fields.noun;
  const head = `\`${unknown.name}\` is not a field of ${where}`;
  const column = unknown.parent ? undefined : columnNamed(unknown.name, fields.columns);
  if (column && column.path !== unknown.name) return `${head}: the ${column.header} column is \`${column.path}\` (JSON and --query read the API's fields)`;
  const near = closest(unknown.name, unknown.known);
  return near ? `${head}: did you mean \`${unknown.parent ? `${unknown.parent}.` : ''}${near}\`?` : `${head} (its fields: ${unknown.known.join(', ')})`;
}

/**
 * Refuses a --query that reads a field the items do not have, and a --json FIELD that is
 * not one of theirs (exit 2, nothing sent). `single`: the output is one item, not a list.
 */
export async function checkItemFields(globals: Readonly<GlobalOptions>, items: ItemsName, single = false): Promise<void> {
  if (globals.query === undefined && !globals.fields?.length) return;
  const fields = itemFields(items);
  for (const name of globals.fields ?? []) {
    if (name in fields.shape) continue;
    const text = unknownFieldText({ name, parent: '', known: Object.keys(fields.shape) }, fields);
    throw new UsageError(`--json: ${text.replace(/ \(its fields: .*\)$/, '')}; the fields of ${fields.noun}: ${Object.keys(fields.shape).join(', ')}`);
  }
  if (globals.query === undefined) return;
  const { compile } = await import('@jmespath-community/jmespath');
  const unknown = unknownFields(compile(globals.query), single ? fields.shape : [fields.shape]);
  if (unknown.length) throw new UsageError(`--query: ${unknownFieldText(unknown[0]!, fields)}`);
}
