// The completion script of each shell, generated from the one command tree.
import type { CommandSpec } from '../spec.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { buildModel } from './model.js';
import { zshScript } from './zsh.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Where `npm run completions` writes each script (completions/, for packaging). */
export const COMPLETION_FILES: Record<Shell, string> = { bash: 'platform.bash', zsh: '_platform', fish: 'platform.fish' };

export function completionScript(shell: Shell, tree: readonly CommandSpec[]): string {
  const model = buildModel(tree);
  if (shell === 'bash') return bashScript(model);
  if (shell === 'zsh') return zshScript(model);
  return fishScript(model);
}
