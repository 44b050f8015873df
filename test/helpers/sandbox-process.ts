// `platform sandbox serve --port 0` as a process of its own (built CLI), for tests whose
// CLI runs block this process (spawnSync) or that kill and restart things around it.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const bin = path.resolve(import.meta.dirname, '../../bin/platform.js');

export interface SandboxProcess {
  url: string;
  process: ChildProcess;
  /** Ctrl-C: the sandbox stops cleanly. */
  stop(): void;
}

/** Starts it with these extra flags and resolves once it says where it listens. */
export async function startSandboxProcess(args: string[] = []): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [bin, 'sandbox', 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    let listening = false;
    // Read to the end (a full pipe would stall the sandbox), kept only until it listens.
    const seen = (chunk: Buffer) => {
      if (listening) return;
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (!match) return;
      listening = true;
      resolve(match[1]!);
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}: ${out}`)));
  });
  return { url, process: child, stop: () => void child.kill('SIGINT') };
}
