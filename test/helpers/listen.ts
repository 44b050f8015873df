// `platform webhooks listen` run in-process, as a test's receiver of sandbox deliveries.
import type { Clock } from '../../src/base/io.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { startCli, type LiveRun } from './auth.js';
import { TestUser } from './cli.js';

export interface Listener {
  run: LiveRun;
  url: string;
  /** The JSON lines it printed (read once it has stopped). */
  events(): Array<Record<string, any>>;
  stop(): Promise<{ code: number; stdout: string; stderr: string }>;
}

/**
 * `platform webhooks listen --port 0 -o json ...` in-process; secret: the local profile's (the
 * demo client's). Stopped by `stop()`, else by the clean-up `cleanup` runs after the test.
 */
export async function listen(sandbox: Sandbox, cleanup: Array<() => unknown>, args: string[] = [], options: { clock?: Clock } = {}): Promise<Listener> {
  const user = new TestUser(sandbox, { PLATFORM_WEBHOOK_SECRET: undefined });
  const controller = new AbortController();
  const run = startCli(user, ['webhooks', 'listen', '--port', '0', '-o', 'json', ...args], { signal: controller.signal, clock: options.clock });
  const [, url] = await run.waitForStderr(/Listening on (http:\/\/127\.0\.0\.1:\d+)/);
  // The stdout of a live run is only handed back at the end.
  const lines: string[] = [];
  cleanup.push(() => {
    controller.abort();
    return run.done;
  });
  return {
    run,
    url: url!,
    events: () => lines.map((l) => JSON.parse(l) as Record<string, any>),
    async stop() {
      controller.abort();
      const result = await run.done;
      lines.splice(0, lines.length, ...result.stdout.split('\n').filter(Boolean));
      return result;
    },
  };
}
