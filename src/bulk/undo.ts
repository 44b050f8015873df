// `runs undo`: a run's history (runs.ts) turned into planned rows (pipeline.ts), sent like a
// plan: each row that the run applied gets back the values it replaced, but only while its
// resource still has what the run wrote (plan-check.ts; else `conflict`). The API has no
// delete: what a create made is paused instead, and an ad, which has no status, cannot be
// undone. The undo is a patch run of its own, so it can be shown, resumed and undone too.
import type { AdsResource } from '../api/ads-resources.js';
import type { PlannedRow } from './pipeline.js';
import type { HistoryRow } from './runs.js';

type Json = Record<string, unknown>;

/**
 * Fields the published API clears with `{}` ("an empty targeting object clears the
 * targeting"): one the resource did not have before the run is restored so. The sandbox
 * clears a budget or dayparting the same way, but the OpenAPI does not say so: those are refused.
 */
const CLEARABLE = new Set(['targeting']);

const PAUSED: Record<string, string> = {
  campaigns: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED',
  ad_groups: 'AD_GROUP_CONFIGURED_STATUS_PAUSED',
};

/** The rows that restore what a run of `mode` on `resource` changed (its rows that succeeded, in input order). */
export function* undoRows(rows: readonly HistoryRow[], resource: AdsResource, mode: string): Generator<PlannedRow> {
  for (const row of rows) {
    if (row.result !== 'ok') continue;
    const at = { line: row.line, ...(row.campaignId ? { campaignId: row.campaignId } : {}) };
    const undo = mode === 'create' ? pauseCreated(row, resource) : restore(row, resource);
    yield { ...at, ...undo };
  }
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
    else if (CLEARABLE.has(key)) request[key] = {};
    else return { request, problem: { field: key, message: 'had none before the run, and the API cannot remove one: not undone' } };
  }
  // A field the run cleared ({}) has no leaves to compare: what it wrote is the absence.
  const written = Object.fromEntries(Object.entries(change.after).filter(([, value]) => !isEmptyObject(value)));
  return { request, expect: { written } };
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
