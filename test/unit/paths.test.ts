// The folders of ctx.paths, from the environment and the home folder alone.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { platformPaths } from '../../src/config/paths.js';

const HOME = '/home/ada';

describe('platformPaths', () => {
  it('keeps state under ~/.local/state/platform and config under ~/.config/platform when no variable says', () => {
    expect(platformPaths({}, HOME)).toEqual({
      config: '/home/ada/.config/platform',
      state: '/home/ada/.local/state/platform',
      runs: '/home/ada/.local/state/platform/runs',
      budgets: '/home/ada/.local/state/platform/budgets',
      plans: '/home/ada/.local/state/platform/plans',
      inbox: '/home/ada/.config/platform/webhooks',
    });
  });

  it('follows $XDG_STATE_HOME and $XDG_CONFIG_HOME', () => {
    expect(platformPaths({ XDG_STATE_HOME: '/xdg/state', XDG_CONFIG_HOME: '/xdg/config' }, HOME)).toEqual({
      config: '/xdg/config/platform',
      state: '/xdg/state/platform',
      runs: '/xdg/state/platform/runs',
      budgets: '/xdg/state/platform/budgets',
      plans: '/xdg/state/platform/plans',
      inbox: '/xdg/config/platform/webhooks',
    });
  });

  it('takes $HOME over the home folder it is given', () => {
    const paths = platformPaths({ HOME: '/elsewhere' }, HOME);
    expect(paths.state).toBe('/elsewhere/.local/state/platform');
    expect(paths.config).toBe('/elsewhere/.config/platform');
  });

  it('puts the config (and the inbox) in $PLATFORM_CONFIG_DIR, resolved, but not the state', () => {
    const paths = platformPaths({ PLATFORM_CONFIG_DIR: 'rel/config', XDG_STATE_HOME: '/xdg/state' }, HOME);
    expect(paths.config).toBe(path.resolve('rel/config'));
    expect(paths.inbox).toBe(path.join(path.resolve('rel/config'), 'webhooks'));
    expect(paths.runs).toBe('/xdg/state/platform/runs');
  });

  it('ignores empty variables', () => {
    expect(platformPaths({ XDG_STATE_HOME: '', XDG_CONFIG_HOME: '', PLATFORM_CONFIG_DIR: '', HOME: '' }, HOME)).toEqual(platformPaths({}, HOME));
  });

  it('is frozen', () => {
    expect(Object.isFrozen(platformPaths({}, HOME))).toBe(true);
  });
});
