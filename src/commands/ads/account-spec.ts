// --account is optional on the command line and required in effect: every command under
// `platform ads` that declares it gets its value from the flag, PLATFORM_ACCOUNT or the
// profile's setting, resolved in one place before the command's own code runs. Data-side
// only: the resolution loads (./account.js) when a command runs.
import type { CommandModule, CommandSpec } from '../spec.js';
import { account } from './options-spec.js';

const optionalAccount = { ...account, required: false };

/** The tree with each command that takes --account made to resolve it first. */
export function withAccountDefault(spec: CommandSpec): CommandSpec {
  const subcommands = spec.subcommands?.map(withAccountDefault);
  const load = spec.load;
  if (!load || !spec.options?.includes(account)) return { ...spec, ...(subcommands ? { subcommands } : {}) };
  return {
    ...spec,
    ...(subcommands ? { subcommands } : {}),
    options: spec.options.map((option) => (option === account ? optionalAccount : option)),
    load: async () => {
      const [module, { runWithAccount }] = await Promise.all([load() as Promise<CommandModule<{ account: string }>>, import('./account.js')]);
      const wrapped: CommandModule<{ account?: string }> = {
        run: (ctx, flags, args, invocation) => runWithAccount(ctx, flags, (resolved) => module.run(ctx, resolved, args, invocation)),
      };
      return wrapped;
    },
  };
}
