// The whole command tree: each area declares its commands in its own spec.ts (data only),
// mounted here in the order `platform --help` lists them.
import { adsSpec } from './ads/spec.js';
import { apiSpec } from './api/spec.js';
import { authSpec } from './auth/spec.js';
import { configSpec } from './config/spec.js';
import { deliverySpec } from './delivery/spec.js';
import { mcpSpec } from './mcp/spec.js';
import { riderSpec } from './rider/spec.js';
import { sandboxSpec } from './sandbox/spec.js';
import { command, type CommandSpec } from './spec.js';
import { webhooksSpec } from './webhooks/spec.js';

export const commandTree: readonly CommandSpec[] = [
  sandboxSpec,
  authSpec,
  configSpec,
  adsSpec,
  riderSpec,
  deliverySpec,
  webhooksSpec,
  apiSpec,
  mcpSpec,
  command({
    name: 'completion',
    summary: 'Print a completion script: bash, zsh or fish',
    description: 'Prints a completion script for the shell on stdout. See the README, "Shell completion", to install it.',
    args: [{ name: 'shell', description: 'bash, zsh or fish', required: true, choices: ['bash', 'zsh', 'fish'] }],
    examples: [
      'source <(platform completion bash)',
      'platform completion zsh > "${fpath[1]}/_platform"',
      'platform completion fish > ~/.config/fish/completions/platform.fish',
    ],
    load: () => import('./completion.js'),
  }),
  command({
    name: '__complete',
    summary: 'Values for the shell completion scripts',
    hidden: true,
    args: [{ name: 'kind', description: 'what to list', required: true, choices: ['profiles'] }],
    examples: ['platform __complete profiles', 'platform __complete profiles --profile local'],
    load: () => import('./complete.js'),
  }),
];
