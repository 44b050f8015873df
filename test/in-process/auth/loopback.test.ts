import net from 'node:net';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { LoopbackListener } from '../../../src/auth/loopback.js';
import { callbackPages } from '../../../src/auth/callback-page.js';
import { scaled } from '../../helpers/time-scale.js';

let listener: LoopbackListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: scaled(2000) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe('the loopback listener', () => {
  it('listens on 127.0.0.1 only', async () => {
    listener = await LoopbackListener.start(0, 'state-1');
    expect(listener.address).toBe('127.0.0.1');
    expect(listener.redirectUri).toBe(`http://127.0.0.1:${listener.port}/callback`);
    expect(await connects('127.0.0.1', listener.port)).toBe(true);
    expect(await connects('::1', listener.port)).toBe(false);
    const external = Object.values(os.networkInterfaces())
      .flat()
      .filter((i) => i && i.family === 'IPv4' && !i.internal);
    for (const address of external) expect(await connects(address!.address, listener.port)).toBe(false);
  });

  it('rejects a wrong state and keeps waiting; takes the matching callback; ignores what follows', async () => {
    const rejected: string[] = [];
    listener = await LoopbackListener.start(0, 'good-state', (reason) => rejected.push(reason));
    let settled = false;
    void listener.callback.then(() => (settled = true));

    const wrong = await fetch(`${listener.redirectUri}?code=stolen&state=evil`);
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toMatch(/state does not match/);
    expect(rejected).toEqual(['its state does not match this sign-in']);
    const noState = await fetch(`${listener.redirectUri}?code=stolen`);
    expect(noState.status).toBe(400);
    expect(settled).toBe(false);

    const first = fetch(`${listener.redirectUri}?code=the-code&state=good-state`);
    const callback = await listener.callback;
    expect(callback.params).toEqual({ code: 'the-code' });
    // The first request waits for the outcome; a second one meanwhile is ignored.
    const second = await fetch(`${listener.redirectUri}?code=other-code&state=good-state`);
    expect(second.status).toBe(409);
    expect(await second.text()).toMatch(/already handled; this request was ignored/);
    callback.reply(callbackPages.signedIn('Dana Demo'));
    const answered = await first;
    expect(answered.status).toBe(200);
    expect(await answered.text()).toMatch(/signed in as Dana Demo[\s\S]*You can close this tab/);
    expect((await listener.callback).params).toEqual({ code: 'the-code' });
  });

  it('passes an error redirect on, and answers other paths with 404', async () => {
    listener = await LoopbackListener.start(0, 's');
    expect((await fetch(`http://127.0.0.1:${listener.port}/favicon.ico`)).status).toBe(404);
    void fetch(`${listener.redirectUri}?error=access_denied&error_description=no&state=s`).catch(() => {});
    expect((await listener.callback).params).toEqual({ error: 'access_denied', description: 'no' });
  });

  it('a fixed port that is taken is a usage error', async () => {
    listener = await LoopbackListener.start(0, 's');
    await expect(LoopbackListener.start(listener.port, 's')).rejects.toThrow(/--callback-port \d+: the port is in use/);
  });
});
