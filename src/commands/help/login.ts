// `platform help login`: the three ways `platform auth login` signs in, and its flags in full.
import { table, type HelpTopic } from './topic.js';

const flags: Array<[string, string]> = [
  ['--client-credentials', 'use the client-credentials grant (no browser, no user)'],
  [
    '--scopes LIST',
    'scopes to request, comma- or space-separated (browser default: profile, request and the ads scopes; client credentials: all the client may have)',
  ],
  ['--base-url URL', 'API base URL of the profile: ads and delivery (default for new profiles: the local sandbox)'],
  ['--auth-url URL', 'where the token and authorize endpoints are (spec 4.2; default: the base URL)'],
  ['--rider-url URL', 'where the rider API is (spec 4.4; default: the base URL)'],
  ['--callback-port N', 'port of the 127.0.0.1 listener (default: any free port; fix it to forward with ssh -L)'],
  ['--no-browser', 'do not open a browser: print the URL and read the redirected address from stdin'],
  ['--timeout DURATION', 'how long to wait for the browser sign-in, e.g. 90s, 5m (default 5m)'],
  ['--login-hint USER', 'which user to sign in as (the sandbox: demo, no-payment, unverified, or an email)'],
  ['--set-default', 'make this profile the default (the first profile you log in to becomes it anyway)'],
  ['--consent', 'show the consent page even if these scopes were allowed before (prompt=consent)'],
  ['--with-token', 'store an access token read from stdin (never an argument), checked with the server once; nothing renews it'],
  [
    '--secure-storage MODE',
    'where the secrets go: auto (the OS keyring, else the 0600 config file with a warning), require (the keyring or exit 4), file (env: PLATFORM_SECURE_STORAGE; default auto)',
  ],
];

export const loginTopic: HelpTopic = {
  name: 'login',
  summary: 'Signing in: browser, client credentials, a token',
  text: () => `Signing in (platform auth login), three ways.

In the browser (no flags): sign in as a user (authorization code with PKCE). A listener on 127.0.0.1 receives the redirect; the URL is printed first, then opened ($PLATFORM_BROWSER, $BROWSER, else the system browser). With --no-browser, or when no browser can be opened (an SSH session, no display), open the URL anywhere and paste the address it redirects to. Tokens are kept in the profile and renewed with the refresh token; you are not asked again while it works.

With --client-credentials: store the client id (and secret) in the profile and fetch a token with the client-credentials grant. The secret comes from PLATFORM_CLIENT_SECRET or a hidden prompt, never from a command-line argument.

With --with-token: store an access token you already have (CI, containers), read from stdin, or typed at a hidden prompt in a terminal. It is checked with the server once and kept like any token (--secure-storage); it cannot be renewed: when it is refused, run the same login again.

Flags in full:

${table(flags)}

On a server without a browser, fix the listener's port and forward it from your machine: platform auth login --no-browser --callback-port 8765, with ssh -L 8765:127.0.0.1:8765 from your machine.
`,
};
