// The ad account a tool works in: its `account` input, else PLATFORM_ACCOUNT, else the
// profile's default account, as for every ads command (config/resolve.ts).
import { UsageError } from '../base/errors.js';
import { commandAccountOf } from '../config/resolve.js';
import type { Context } from '../context.js';
import { idProblem } from '../schemas/ids.js';

export async function accountFor(ctx: Context, given: string | undefined): Promise<string> {
  const chosen = await commandAccountOf(ctx.env, given, async () => {
    const [store, choice] = await Promise.all([ctx.config(), ctx.profile()]);
    return { name: choice.name, profile: store.getProfile(choice.name) };
  });
  if (!chosen) throw new UsageError("account: no ad account: give account, or set PLATFORM_ACCOUNT or the profile's default account");
  const problem = idProblem(chosen.value);
  if (problem) throw new UsageError(`account: the id ${problem}`);
  return chosen.value;
}
