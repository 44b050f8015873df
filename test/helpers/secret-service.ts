// A real Secret Service for tests: a private D-Bus session (dbus-run-session) with
// gnome-keyring-daemon unlocked in it, as a desktop has. Its address goes into the CLI's
// environment as DBUS_SESSION_BUS_ADDRESS; `lookup` asks it with secret-tool (libsecret),
// not through the CLI, so that a test sees what the keyring really holds.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { tempDir } from './cli.js';
import { systemTool } from './system-tools.js';

export const secretServiceTools = [
  systemTool('dbus-run-session', 'dbus'),
  systemTool('gnome-keyring-daemon', 'gnome-keyring'),
  systemTool('secret-tool', 'libsecret-tools'),
];
export const secretServicePresent = secretServiceTools.every((tool) => tool.present);
export const secretServiceSkipNote = secretServiceTools.map((tool) => tool.skipNote).join('');

export interface SecretService {
  /** The environment that reaches it: DBUS_SESSION_BUS_ADDRESS and the session's HOME. */
  env: Record<string, string>;
  /** What the keyring holds for a config folder's profile and kind (secret-tool lookup), else undefined. */
  lookup(configDir: string, profile: string, kind: string): string | undefined;
  /** Every secret the keyring holds for a config folder. */
  all(configDir: string): string[];
  stop(): Promise<void>;
}

export async function startSecretService(): Promise<SecretService> {
  const home = tempDir('platform-keyring-home-');
  const runtime = path.join(home, 'run');
  fs.mkdirSync(runtime, { mode: 0o700 });
  const base = { PATH: process.env.PATH ?? '', HOME: home, XDG_RUNTIME_DIR: runtime, XDG_DATA_HOME: path.join(home, 'data') };
  // The session lives as long as the shell; the daemon unlocks the login keyring with the password on its stdin.
  const script = 'printf test | gnome-keyring-daemon --unlock --components=secrets >/dev/null && echo "BUS=$DBUS_SESSION_BUS_ADDRESS" && exec sleep 3600';
  const child: ChildProcess = spawn('dbus-run-session', ['--', 'sh', '-c', script], { env: base, stdio: ['ignore', 'pipe', 'ignore'], detached: true });
  const address = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /BUS=(\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`dbus-run-session exited ${code}`)));
  });
  const env = { ...base, DBUS_SESSION_BUS_ADDRESS: address };
  const secretTool = (args: string[]) => spawnSync('secret-tool', args, { env, encoding: 'utf8' });
  return {
    env,
    lookup(configDir, profile, kind) {
      const result = secretTool(['lookup', 'service', `platform-cli:${configDir}`, 'username', `${profile}:${kind}`]);
      return result.status === 0 ? result.stdout : undefined;
    },
    all(configDir) {
      const result = secretTool(['search', '--all', '--unlock', 'service', `platform-cli:${configDir}`]);
      return [...`${result.stdout}\n${result.stderr}`.matchAll(/^secret = (.*)$/gm)].map((m) => m[1]!);
    },
    async stop() {
      const done = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid!, 'SIGTERM');
      await done;
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

/** A D-Bus socket that accepts connections and never answers: a keyring call to it hangs. */
export async function mutedBus(): Promise<{ address: string; close(): Promise<void> }> {
  const socket = path.join(tempDir('platform-mute-bus-'), 'bus');
  const held: net.Socket[] = [];
  const server = net.createServer((connection) => held.push(connection.on('error', () => {})));
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return {
    address: `unix:path=${socket}`,
    close: () =>
      new Promise((resolve) => {
        for (const connection of held) connection.destroy();
        server.close(() => resolve());
      }),
  };
}
