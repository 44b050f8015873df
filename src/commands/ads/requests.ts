// Flags -> what each ads write command sends, without HTTP: the one row (CSV cells) the bulk
// pipeline maps, and what it maps to. A problem is a UsageError naming the flag. The commands
// hand `cells` to the pipeline; tests call these directly (test/unit/flags*.test.ts).
import { UsageError } from '../../base/errors.js';
import { mapRow, type PartialChanges } from '../../bulk/input/row-mapping.js';
import type { AdsFieldResource, FieldMode } from '../../schemas/ads-fields.js';
import { fieldFlagKeys, flagProblem, flagsRow, givenFlags } from './flags.js';
import { resourceId } from './resource-id.js';
import type { CreateAdGroupsFlags, CreateAdsFlags, CreateCampaignsFlags, PatchAdGroupsFlags, PatchAdsFlags, PatchCampaignsFlags } from './spec.js';

export interface FlagsRequest {
  /** The row the pipeline is handed, by CSV column. */
  cells: Record<string, string>;
  /** The API body item it maps to (a patch: before the merge with the current resource). */
  item: Record<string, unknown>;
  /** A patch's parts of nested objects, merged into the current ones before sending (bulk/changes/merge.ts). */
  partial?: PartialChanges;
}

function mapped(resource: AdsFieldResource, mode: FieldMode, cells: Record<string, string>): FlagsRequest {
  const result = mapRow(resource, mode, cells);
  if (!result.ok) throw new UsageError(flagProblem(result.problem.field, result.problem.message));
  return { cells, item: result.item, ...(result.partial ? { partial: result.partial } : {}) };
}

/** The flags given among a command's fields, as --kebab-case (--no-x for false). */
export function givenFieldFlags(flags: object, resource: AdsFieldResource, mode: FieldMode): string[] {
  return givenFlags(flags, fieldFlagKeys(resource, mode));
}

/** An ISO 8601 time without milliseconds (a create's schedule starts now). */
const isoSeconds = (now: number) => new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function campaignCreateRequest(flags: CreateCampaignsFlags): FlagsRequest {
  if (flags.name === undefined) throw new UsageError('--name is required (or use --from-csv / --from-json)');
  // --budget-unit has a default; it belongs in the row only with a budget.
  const withBudget = flags.budget !== undefined || flags.budgetE5 !== undefined;
  const cells = flagsRow('campaigns', 'create', { ...flags, status: flags.status ?? 'active', budgetUnit: withBudget ? flags.budgetUnit : undefined });
  return mapped('campaigns', 'create', cells);
}

export function campaignPatchRequest(flags: PatchCampaignsFlags, args: readonly string[]): FlagsRequest {
  const id = resourceId(args[0], flags.campaignId, '--campaign-id');
  if (!id) throw new UsageError('give the campaign id (`patch ID` or --campaign-id ID), or use --from-csv / --from-json');
  if (!givenFieldFlags(flags, 'campaigns', 'patch').length) throw new UsageError('nothing to change: give --name, --status or a budget');
  return mapped('campaigns', 'patch', flagsRow('campaigns', 'patch', flags, id));
}

/** `now`: the clock's time, the schedule's start when --start is not given. */
export function adGroupCreateRequest(flags: CreateAdGroupsFlags, now: number): FlagsRequest {
  if (flags.name === undefined) throw new UsageError('--name is required (or use --from-csv / --from-json)');
  if (!flags.storeIds?.length) throw new UsageError('--store-ids is required: an ad group promotes at least one store');
  // Create defaults: active, starting now (automatic bidding and the listing product come from the mapping).
  const withBudget = flags.budget !== undefined || flags.budgetE5 !== undefined;
  const cells = flagsRow('ad_groups', 'create', {
    ...flags,
    budgetUnit: withBudget ? flags.budgetUnit : undefined,
    status: flags.status ?? 'active',
    start: flags.start ?? isoSeconds(now),
  });
  return mapped('ad_groups', 'create', cells);
}

export function adGroupPatchRequest(flags: PatchAdGroupsFlags, args: readonly string[]): FlagsRequest {
  const id = resourceId(args[0], flags.adGroupId, '--ad-group-id');
  if (!id) throw new UsageError('give the ad group id (`patch ID` or --ad-group-id ID), or use --from-csv / --from-json');
  if (!givenFieldFlags(flags, 'ad_groups', 'patch').length) throw new UsageError('nothing to change: give at least one field flag (see --help)');
  return mapped('ad_groups', 'patch', flagsRow('ad_groups', 'patch', flags, id));
}

export function adCreateRequest(flags: CreateAdsFlags): FlagsRequest {
  if (flags.name === undefined) throw new UsageError('--name is required (or use --from-json)');
  return mapped('ads', 'create', flagsRow('ads', 'create', flags));
}

export function adPatchRequest(flags: PatchAdsFlags, args: readonly string[]): FlagsRequest {
  const id = resourceId(args[0], flags.adId, '--ad-id');
  if (!id) throw new UsageError('give the ad id (`patch ID` or --ad-id ID), or use --from-csv / --from-json');
  if (flags.name === undefined) throw new UsageError('nothing to change: give --name');
  return mapped('ads', 'patch', flagsRow('ads', 'patch', flags, id));
}
