// Which ad account a command uses: --account, else PLATFORM_ACCOUNT, else the profile's
// setting (`platform config set account`). A value that did not come from the flag is named
// with its source in errors about that account, so a stale default explains itself.
import type { Context } from '../../context.js';
import { commandAccountOf, sourceText } from '../../config/resolve.js';
import { ApiError, PartialFailureError, UsageError } from '../../base/errors.js';
import { idProblem } from '../../schemas/ids.js';

export async function runWithAccount<F extends { account?: string }>(
  ctx: Context,
  flags: F,
  run: (flags: F & { account: string }) => Promise<void>,
): Promise<void> {
  const chosen = await commandAccountOf(ctx.env, flags.account, async () => {
    const [store, choice] = await Promise.all([ctx.config(), ctx.profile()]);
    return { name: choice.name, profile: store.getProfile(choice.name) };
  });
  if (!chosen) {
    const choice = await ctx.profile();
    const profileFlag = choice.source.kind === 'flag' ? ` --profile ${choice.name}` : '';
    throw new UsageError(`no ad account: give --account ID, set PLATFORM_ACCOUNT, or run \`platform config set account ID${profileFlag}\``);
  }
  const source = chosen.source.kind === 'flag' ? undefined : `from ${sourceText(chosen.source)}`;
  const problem = source && idProblem(chosen.value);
  if (problem) throw new UsageError(`the ad account ${source}: the id ${problem}`);
  try {
    await run({ ...flags, account: chosen.value });
  } catch (error) {
    throw source ? namingSource(error, chosen.value, source) : error;
  }
}

/** `ad account X not found` -> `ad account X (from PLATFORM_ACCOUNT) not found`; other errors as they are. */
function namingSource(error: unknown, id: string, source: string): unknown {
  const named = (text: string) => text.replace(`account ${id}`, `account ${id} (${source})`);
  if (error instanceof ApiError && error.detail.includes(`account ${id}`)) return new ApiError(error.status, error.code, named(error.detail), error.requestId);
  if (error instanceof PartialFailureError && error.message.includes(`account ${id}`)) return new PartialFailureError(named(error.message));
  return error;
}
