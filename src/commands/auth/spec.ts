// `platform auth ...`: its commands, flags, help and examples. Data only: command code
// loads when it runs. Each command's flags type is derived from its options here.
import { command, group, option, options, type FlagsOf } from '../spec.js';

const authLoginOptions = options(
  option({ flags: '--client-credentials', description: 'use the client-credentials grant (no browser)' }),
  option({ flags: '--client-id <id>', description: 'OAuth client id (env: PLATFORM_CLIENT_ID)' }),
  option({
    flags: '--scopes <list>',
    description: 'scopes to request, comma- or space-separated',
    kind: 'list',
  }),
  option({ flags: '--base-url <url>', description: 'API base URL of the profile (ads, delivery)' }),
  option({ flags: '--auth-url <url>', description: 'token and authorize endpoints (default: base URL)' }),
  option({ flags: '--rider-url <url>', description: 'rider API URL (default: the base URL)' }),
  option({ flags: '--callback-port <n>', description: 'port of the 127.0.0.1 listener (default: any)', kind: 'int' }),
  option({ flags: '--no-browser', description: 'print the URL; paste the address it redirects to' }),
  option({ flags: '--timeout <duration>', description: 'wait this long for the sign-in (90s, 5m)', default: '5m' }),
  option({ flags: '--login-hint <user>', description: 'which user to sign in as (an email; sandbox: demo)' }),
  option({ flags: '--set-default', description: 'make this profile the default' }),
  option({ flags: '--consent', description: 'show the consent page again (prompt=consent)' }),
  option({
    flags: '--with-token',
    description: 'store an access token read from stdin',
  }),
  option({
    flags: '--secure-storage <mode>',
    choices: ['auto', 'require', 'file'],
    description: 'where secrets go: the keyring, or a 0600 file',
  }),
);
export type AuthLoginFlags = FlagsOf<typeof authLoginOptions>;

const authStatusOptions = options(
  option({
    flags: '--check',
    description: 'ask the server whether each token still works (only the profile named by --profile or PLATFORM_PROFILE, if one is); exit 4 if one does not',
  }),
);
export type AuthStatusFlags = FlagsOf<typeof authStatusOptions>;

const authMigrateOptions = options(
  option({
    flags: '--secure-storage <mode>',
    choices: ['auto', 'require', 'file'],
    description: 'auto (the keyring when it answers; else nothing moves), require (the keyring or exit 4), file (back into the config file)',
  }),
);
export type AuthMigrateFlags = FlagsOf<typeof authMigrateOptions>;

export const authSpec = group({
  name: 'auth',
  summary: 'Sign in, inspect and remove credentials',
  examples: ['platform auth login --client-credentials --profile local', 'platform auth status'],
  subcommands: [
    command({
      name: 'login',
      summary: 'Sign in with the browser, or store client credentials for a profile',
      description:
        'Without flags: sign in as a user in the browser (PKCE); --no-browser prints the URL instead, for a machine ' +
        'without one. --client-credentials stores a client id and secret (from PLATFORM_CLIENT_SECRET or a prompt) and ' +
        'fetches a token; --with-token stores a token read from stdin. In full, with every flag: platform help login.',
      options: authLoginOptions,
      examples: [
        'platform auth login',
        'platform auth login --profile prod --client-id abc --base-url https://api.example.com --scopes profile,request',
        'platform auth login --no-browser --callback-port 8765    # on a server; ssh -L 8765:127.0.0.1:8765 from your machine',
        'platform auth login --client-credentials --profile local',
        'PLATFORM_CLIENT_SECRET=... platform auth login --client-credentials --profile prod --client-id abc --base-url https://api.example.com',
        'platform auth login --client-credentials --scopes ads.campaigns.read',
        'platform auth login --with-token --profile ci < token.txt',
      ],
      load: () => import('./login.js'),
    }),
    command({
      name: 'status',
      summary: 'Show every profile: grant, scopes, expiry (never the token); --check asks the server',
      description:
        'Without --check, what the config says, offline: a token listed here may have been revoked since.\n' +
        'With --check, each profile gets a token as a command would (renewing an expired one) and makes one\n' +
        'cheap call with it (the ad accounts, or /v1.2/me for a user without ads scopes). The CHECK column\n' +
        'says valid, expired, refused, signed out, unreachable or unknown; for each that is not valid, the\n' +
        'command that signs it in again. Exit 0 when every checked profile is valid, 4 when one needs\n' +
        'signing in (expired, refused, signed out), 1 when the server could not answer.',
      options: authStatusOptions,
      examples: ['platform auth status', 'platform auth status --check', 'platform auth status --check --profile rider --json'],
      load: () => import('./status.js'),
    }),
    command({
      name: 'token',
      summary: 'Print the access token of the profile, for scripts',
      examples: ['platform auth token', 'curl -H "Authorization: Bearer $(platform auth token)" http://127.0.0.1:4010/v1/ads/ad-accounts'],
      load: () => import('./token.js'),
    }),
    command({
      name: 'switch',
      summary: 'Make a profile the default (the one used without --profile or PLATFORM_PROFILE)',
      args: [{ name: 'profile', description: 'the profile to use from now on (see `platform auth status`)', required: true }],
      examples: ['platform auth switch local', 'platform auth switch prod && platform auth status'],
      load: () => import('./switch.js'),
    }),
    command({
      name: 'migrate',
      summary: 'Move the secrets of every profile (or --profile) from the config file into the OS keyring',
      description:
        'Each profile whose client secret or tokens are in the config file gets them moved into the OS keyring:\n' +
        'they are written, read back, and only then removed from the file. With --secure-storage file they move\n' +
        'back into the file (mode 0600). Exit 4 when a profile could not be moved (require, or no keyring).',
      options: authMigrateOptions,
      examples: ['platform auth migrate', 'platform auth migrate --profile prod --secure-storage require', 'platform auth migrate --secure-storage file'],
      load: () => import('./migrate.js'),
    }),
    command({
      name: 'logout',
      summary: "Remove the profile's stored tokens and secret",
      examples: ['platform auth logout', 'platform auth logout --profile prod'],
      load: () => import('./logout.js'),
    }),
  ],
});
