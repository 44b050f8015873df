// Shared by every `ads ... view ID`: one resource, fetched by its id, shown in full.
import type { AdsResource, AdsScope } from '../../api/ads-resources.js';
import type { Context } from '../../context.js';
import { ApiError } from '../../base/errors.js';
import { writeDetail, type DetailField } from '../../output/detail.js';
import type { View } from '../../output/columns.js';

export async function viewResource<T>(
  ctx: Context,
  resource: AdsResource,
  scope: AdsScope,
  id: string,
  fields: (item: T) => DetailField[],
  listView: View<T>,
): Promise<void> {
  // --query and --json FIELDS name the item's own fields: checked before anything is sent (item-fields.ts).
  if (ctx.globals.query !== undefined || ctx.globals.fields?.length) {
    await (await import('../../output/item-fields.js')).checkItemFields(ctx.globals, resource.wrapper, true);
  }
  const client = await ctx.client();
  const [item] = await client.ads.getByIds<T>(resource, scope, [id]);
  if (!item)
    throw new ApiError(
      404,
      'NotFound',
      `${resource.noun} ${id} not found${scope.adGroup ? ` in ad group ${scope.adGroup}` : scope.campaign ? ` in campaign ${scope.campaign}` : ` in account ${scope.account}`}`,
    );
  // -o csv: the list's columns, so `view ID -o csv` reads back as `list --id ID -o csv` does.
  const { fields: only } = ctx.globals;
  if (only?.length) {
    // Picked here: a field the schema has may be absent from this item (a campaign without a budget).
    const { pick } = await import('../../output/pick-fields.js');
    const { withoutFields } = await import('../../output/rows.js');
    return writeDetail(withoutFields(ctx), pick(item, only) as T, fields(item), listView);
  }
  await writeDetail(ctx, item, fields(item), listView);
}
