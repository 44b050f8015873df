// `platform completion bash|zsh|fish`: print the shell's completion script.
import type { Context } from '../context.js';
import { completionScript, type Shell } from './completion/scripts.js';
import { write } from '../base/stream-write.js';
import type { Invocation } from './spec.js';

export async function run(ctx: Context, _flags: unknown, args: string[], invocation: Invocation): Promise<void> {
  // commander has checked the shell against the argument's choices.
  await write(ctx.io.stdout, completionScript(args[0] as Shell, invocation.tree));
}
