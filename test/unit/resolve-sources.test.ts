// Where a setting came from, typed, and the words output uses for it (unchanged since they were free strings).
import { describe, expect, it } from 'vitest';
import { accountOf, caFileOf, chooseProfile, clientSecretOf, commandAccountOf, secureStorageOf, sourceText, type Sourced } from '../../src/config/resolve.js';

const phrase = (sourced: Sourced | undefined) => sourced && sourceText(sourced.source);
const label = (sourced: Sourced | undefined) => sourced && sourceText(sourced.source, 'label');

describe('settings and their sources', () => {
  it('takes a flag over its variable over the profile', () => {
    const env = { PLATFORM_ACCOUNT: 'from-env' };
    expect(accountOf(env, { account: 'stored' }, 'flagged')).toEqual({ value: 'flagged', source: { kind: 'flag', name: '--account' } });
    expect(accountOf(env, { account: 'stored' })).toEqual({ value: 'from-env', source: { kind: 'env', name: 'PLATFORM_ACCOUNT' } });
    expect(accountOf({}, { account: 'stored' }, undefined, 'work')).toEqual({ value: 'stored', source: { kind: 'profile', name: 'account', profile: 'work' } });
    expect(accountOf({ PLATFORM_ACCOUNT: '' }, {}, '')).toBeUndefined();
  });

  it('names them in messages as before', () => {
    expect(phrase(accountOf({ PLATFORM_ACCOUNT: 'a' }, undefined))).toBe('PLATFORM_ACCOUNT');
    expect(phrase(accountOf({}, { account: 'a' }, undefined, 'work'))).toBe('the config of profile work');
    expect(phrase(clientSecretOf({ PLATFORM_CLIENT_SECRET: 's' }, undefined, 'work'))).toBe('PLATFORM_CLIENT_SECRET');
    expect(phrase(clientSecretOf({}, { client_secret: 's' }, 'work'))).toBe('the client secret of profile work');
    expect(phrase(caFileOf({}, undefined, '/ca.pem'))).toBe('--ca-file');
    expect(phrase(caFileOf({ PLATFORM_CA_FILE: '/ca.pem' }, undefined))).toBe('PLATFORM_CA_FILE');
    expect(phrase(caFileOf({}, { ca_file: '/ca.pem' }))).toBe("the profile's ca_file");
    expect(phrase(secureStorageOf({}, undefined, 'file'))).toBe('--secure-storage');
    expect(phrase(secureStorageOf({ PLATFORM_SECURE_STORAGE: 'file' }, undefined))).toBe('PLATFORM_SECURE_STORAGE');
    expect(phrase(secureStorageOf({}, { secure_storage: 'file' }))).toBe('the profile setting secure_storage');
  });

  it('labels them in SOURCE columns as before', () => {
    expect(label(accountOf({ PLATFORM_ACCOUNT: 'a' }, undefined))).toBe('env PLATFORM_ACCOUNT');
    expect(label(accountOf({}, { account: 'a' }, undefined, 'work'))).toBe('config');
    expect(label(caFileOf({ PLATFORM_CA_FILE: '/ca.pem' }, undefined))).toBe('env PLATFORM_CA_FILE');
    expect(label(secureStorageOf({}, { secure_storage: 'require' }))).toBe('config');
    expect(label(clientSecretOf({ PLATFORM_CLIENT_SECRET: 's' }, undefined, 'work'))).toBe('env PLATFORM_CLIENT_SECRET');
  });

  it('falls back to auto for secure storage, and keeps an empty stored setting (to refuse it)', () => {
    expect(secureStorageOf({}, undefined)).toEqual({ value: 'auto', source: { kind: 'default', name: 'auto' } });
    expect(secureStorageOf({}, { secure_storage: '' as 'auto' })).toEqual({ value: '', source: { kind: 'profile', name: 'secure_storage' } });
  });

  it('reads the profile for the account only when neither the flag nor the variable gives one', async () => {
    let read = 0;
    const profile = () => {
      read++;
      return Promise.resolve({ name: 'work', profile: { account: 'stored' } });
    };
    expect((await commandAccountOf({}, 'flagged', profile))?.value).toBe('flagged');
    expect((await commandAccountOf({ PLATFORM_ACCOUNT: 'from-env' }, undefined, profile))?.value).toBe('from-env');
    expect(read).toBe(0);
    expect(await commandAccountOf({}, undefined, profile)).toEqual({ value: 'stored', source: { kind: 'profile', name: 'account', profile: 'work' } });
    expect(read).toBe(1);
  });

  it('says why a profile was chosen with the same kinds', () => {
    expect(chooseProfile('a', { PLATFORM_PROFILE: 'b' }, 'c').source.kind).toBe('flag');
    expect(chooseProfile(undefined, { PLATFORM_PROFILE: 'b' }, 'c')).toEqual({ name: 'b', source: { kind: 'env', name: 'PLATFORM_PROFILE' } });
    expect(chooseProfile(undefined, {}, 'c').source.kind).toBe('default');
  });
});
