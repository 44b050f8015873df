// `runs undo`: a run's history (runs.ts) turned into planned rows (pipeline.ts), sent like a
// plan: each row that the run applied gets back the values it replaced, but only while its
// resource still has what the run wrote (plan-check.ts; else `conflict`). The API has no
// delete: what a create made is paused instead, and an ad, which has no status, cannot be
// undone. The undo is a patch run of its own, so it can be shown, resumed and undone too.
import type { AdsResource } from '../../api/ads-resources.js';
import type { PlannedRow } from '../pipeline.js';
import type { HistoryRow } from './runs.js';
import type { RowChange } from '../changes/row-change.js';
import { ADS_FIELDS, clearableFields } from '../../schemas/ads-fields.js';

type Json = Record<string, unknown>;

/**
 * Fields the published API clears with `{}` ("Providing an empty budget removes the budget",
 * ads-fields.ts `clears`): one the resource did not have before the run is restored so.
 */
const CLEARABLE: Record<string, ReadonlySet<string>> = Object.fromEntries(
  Object.entries(ADS_FIELDS).map(([resource, table]) => [resource, new Set<string>(clearableFields(table))]),
);

const PAUSED: Record<string, string> = {
  campaigns: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED',
  ad_groups: 'AD_GROUP_CONFIGURED_STATUS_PAUSED',
};

/**
 * The rows that restore what a run of `mode` on `resource` changed (its rows that succeeded,
 * and those sent with no answer, which may have been applied: a patch row not applied is
 * then `unchanged`), in input order. A resource the run changed more than once gets one row:
 * back to what its first change replaced, while it still has what its last one wrote.
 */
export function undoRows(rows: readonly HistoryRow[], resource: AdsResource, mode: string): PlannedRow[] {
  const byId = new Map<string, HistoryRow[]>();
  for (const row of rows) {
    if (row.id && (row.result === 'ok' || row.result === 'unanswered')) byId.set(row.id, [...(byId.get(row.id) ?? []), row]);
  }
  const undone = [...byId.values()].map((changes): PlannedRow => {
    const first = changes[0]!;
    const at = { line: first.line, ...(first.campaignId ? { campaignId: first.campaignId } : {}) };
    const whole = { ...first, ...(changes.length > 1 ? { change: combined(changes) } : {}) };
    return { ...at, ...(mode === 'create' ? pauseCreated(whole, resource) : restore(whole, resource)) };
  });
  return undone.sort((a, b) => a.line - b.line);
}

/**
 * Creates sent and never answered (the run was stopped): what they created, if anything, is
 * known only to a resume (same idempotency key). Such a run is resumed before it is undone.
 */
export function unknownCreates(rows: readonly HistoryRow[]): HistoryRow[] {
  return rows.filter((row) => row.result === 'unanswered' && !row.id);
}

/** One resource's changes in turn as one: each field as the first change that set it found it, and as the last one left it. */
function combined(changes: readonly HistoryRow[]): RowChange | undefined {
  if (changes.some((row) => !row.change?.before)) return undefined;
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const { change } of changes) {
    for (const [key, value] of Object.entries(change!.after)) {
      if (!(key in after) && key in change!.before!) before[key] = change!.before![key];
      after[key] = value;
    }
  }
  return { before, after };
}

function pauseCreated(row: HistoryRow, resource: AdsResource): Omit<PlannedRow, 'line'> {
  const paused = PAUSED[resource.wrapper];
  const request = { [resource.idField]: row.id };
  if (!paused) return { request, problem: { field: 'row', message: `the API has no delete, and an ${resource.noun} has no status to pause: not undone` } };
  const written = row.change?.after ?? {};
  return { request: { ...request, configured_status: paused }, expect: { written } };
}

function restore(row: HistoryRow, resource: AdsResource): Omit<PlannedRow, 'line'> {
  const request: Json = { [resource.idField]: row.id };
  const change = row.change;
  if (!change?.before) return { request, problem: { field: 'row', message: 'its journal does not hold the values it replaced: not undone' } };
  for (const key of Object.keys(change.after)) {
    if (key in change.before) request[key] = change.before[key];
    else if (CLEARABLE[resource.wrapper]?.has(key)) request[key] = {};
    else return { request, problem: { field: key, message: 'had none before the run, and the API cannot remove one: not undone' } };
  }
  // A field the run cleared ({}) is expected still absent (diff.ts: a clear is unchanged where there is none).
  return { request, expect: { written: change.after } };
}
