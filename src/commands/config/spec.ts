// `platform config ...`: settings a user sets once per profile (like `gh config`). Data only.
import { command, group } from '../spec.js';
import { SETTING_KEYS } from './settings-spec.js';

const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
const key = { name: 'key', description: `the setting: ${SETTING_KEYS.join(', ')}`, required: true, choices: SETTING_KEYS } as const;

export const configSpec = group({
  name: 'config',
  summary: 'Profile settings, such as the default ad account',
  description:
    'Settings a command uses when its flag is not given, kept per profile (--profile picks which). ' +
    'A flag wins over its environment variable, which wins over the setting: account is --account, then PLATFORM_ACCOUNT, then `config set account`.',
  examples: [`platform config set account ${ACCOUNT}`, 'platform config list'],
  subcommands: [
    command({
      name: 'set',
      summary: 'Set a setting of the profile (the ad account ads commands use without --account)',
      args: [key, { name: 'value', description: 'its value', required: true }],
      examples: [
        `platform config set account ${ACCOUNT}`,
        'platform config set account ACCOUNT --profile work',
        'platform config set base_url http://127.0.0.1:4011 --profile local',
        'platform config set token_url https://login.example.com --profile work',
      ],
      load: () => import('./set.js'),
    }),
    command({
      name: 'get',
      summary: 'Print the value a setting has in the profile (exit 1 when it is not set)',
      args: [key],
      examples: ['platform config get account', 'platform config get account --profile work'],
      load: () => import('./get.js'),
    }),
    command({
      name: 'unset',
      summary: 'Remove a setting from the profile',
      args: [key],
      examples: ['platform config unset account', 'platform config unset account --profile work'],
      load: () => import('./unset.js'),
    }),
    command({
      name: 'list',
      summary: 'List the settings in effect, and where each comes from (env or config)',
      examples: ['platform config list', 'platform config list --profile work --json'],
      load: () => import('./list.js'),
    }),
  ],
});
