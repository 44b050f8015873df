// `platform config set secure_storage auto|require|file`: the profile setting `auth login`
// reads when neither --secure-storage nor PLATFORM_SECURE_STORAGE says where secrets go.
// "No keyring" is a D-Bus address pointing at nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../../src/schemas/sandbox.js';
import { sandboxOnFreePort, tempDir, TestUser } from '../../helpers/cli.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
});
afterAll(() => sandbox.close());

const noKeyring = () => ({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${tempDir('platform-no-bus-')}/bus`, PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET });
const login = ['auth', 'login', '--client-credentials', '--client-id', SANDBOX_DEMO_CLIENT_ID];

describe('config set secure_storage', () => {
  it('refuses a value other than auto, require or file (exit 2, nothing stored)', async () => {
    const user = new TestUser(sandbox);
    const bad = await user.run(['config', 'set', 'secure_storage', 'keyring']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('secure_storage: must be one of auto, require, file\n');
    expect((await user.run(['config', 'get', 'secure_storage'])).code).toBe(1);
  });

  it('is what auth login obeys without the flag or env: require refuses the file; PLATFORM_SECURE_STORAGE and --secure-storage win over it', async () => {
    const user = new TestUser(sandbox, noKeyring());
    const set = await user.run(['config', 'set', 'secure_storage', 'require']);
    expect(set.code, set.stderr).toBe(0);
    expect((await user.run(['config', 'get', 'secure_storage'])).stdout).toBe('require\n');
    const listed = await user.json<Array<{ key: string; value: string | null; source: string | null }>>(['config', 'list']);
    expect(listed.find((row) => row.key === 'secure_storage')).toMatchObject({ value: 'require', source: 'config' });
    const fromEnv = await user.json<Array<{ key: string; value: string | null; source: string | null }>>(['config', 'list'], {
      env: { PLATFORM_SECURE_STORAGE: 'file' },
    });
    expect(fromEnv.find((row) => row.key === 'secure_storage')).toMatchObject({ value: 'file', source: 'env PLATFORM_SECURE_STORAGE' });

    const refused = await user.run(login);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/--secure-storage require refuses to keep the secrets of profile local in a file/);
    expect(user.readConfig().profiles.local!.token).toBeUndefined();

    const envWins = await user.run(login, { env: { PLATFORM_SECURE_STORAGE: 'auto' } });
    expect(envWins.code, envWins.stderr).toBe(0);
    expect(envWins.stderr).toMatch(/Warning: no OS keyring answered/);
    const flagWins = await user.run([...login, '--secure-storage', 'file']);
    expect(flagWins.code, flagWins.stderr).toBe(0);
    expect(flagWins.stderr).not.toMatch(/Warning/);

    expect((await user.run(['config', 'unset', 'secure_storage'])).code).toBe(0);
    const auto = await user.run(login);
    expect(auto.code, auto.stderr).toBe(0);
    expect(auto.stderr).toMatch(/Warning: no OS keyring answered/);
  });
});
