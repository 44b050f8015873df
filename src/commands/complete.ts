// `platform __complete profiles`: values the completion scripts ask for at completion time.
import type { Context } from '../context.js';

export async function run(ctx: Context, _flags: unknown, args: string[]): Promise<void> {
  if (args[0] === 'profiles') {
    const store = await ctx.config();
    ctx.io.stdout.write(
      store
        .profileNames()
        .map((name) => `${name}\n`)
        .join(''),
    );
  }
}
