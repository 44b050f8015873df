// Many `platform` processes at once on one config (test/helpers/config-races.ts), at the
// size of a user's `xargs -P 8`; test/heavy/auth-concurrency.test.ts runs them at scale. And
// the config file's own mode and leftovers.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandboxOnFreePort, TestUser } from '../helpers/cli.js';
import { describeConfigRaces } from '../helpers/config-races.js';

describeConfigRaces({ refreshes: [8], logins: { processes: 8, profiles: 4, rounds: 2 } });

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
});
afterAll(() => sandbox.close());

describe('the config file', () => {
  it('is made 0600 again when a command reads it, and temp files of a killed write are removed by the next write', async () => {
    const user = new TestUser(sandbox);
    expect((await user.run(['auth', 'login', '--client-credentials'])).code).toBe(0);
    fs.chmodSync(user.configPath, 0o644);
    fs.writeFileSync(`${user.configPath}.tmp-1234567890abcdef`, '{"half": ');
    const list = await user.run(['ads', 'accounts', 'list']);
    expect(list.code).toBe(0);
    expect(fs.statSync(user.configPath).mode & 0o777).toBe(0o600);
    expect((await user.run(['auth', 'logout'])).code).toBe(0);
    expect(fs.readdirSync(user.configDir).filter((name) => name.includes('.tmp-'))).toEqual([]);
  });
});
