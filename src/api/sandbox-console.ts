// A running sandbox's state controls (`/_sandbox/snapshots`, `/_sandbox/reset`, sandbox
// only): save and restore named snapshots, reset to the seeded data. State changes carry the
// console's session token (X-Sandbox-Token), read first from GET /_sandbox/session.
import type { HttpCore } from '../http/core.js';
import { pathSegment } from '../http/path-segment.js';

export interface SnapshotResult {
  name?: string;
  bytes?: number;
  campaigns?: number;
  /** Milliseconds the sandbox took. */
  ms: number;
}

export interface SnapshotListing {
  name: string;
  /** Size of its file; absent for a snapshot kept only in memory. */
  bytes?: number;
  campaigns: number;
  saved_at: number;
}

export class SandboxConsoleApi {
  constructor(
    private readonly http: HttpCore,
    /** The sandbox's base URL (no trailing slash). */
    private readonly url: string,
    private readonly signal?: AbortSignal,
  ) {}

  async save(name: string): Promise<SnapshotResult> {
    return this.#post('/_sandbox/snapshots', { name });
  }

  async restore(name: string): Promise<SnapshotResult> {
    return this.#post(`/_sandbox/snapshots/${pathSegment(name, 'the snapshot name')}/restore`, {});
  }

  async reset(): Promise<SnapshotResult> {
    return this.#post('/_sandbox/reset', {});
  }

  async list(): Promise<SnapshotListing[]> {
    const response = await this.http.send<{ snapshots: SnapshotListing[] }>({
      method: 'GET',
      path: `${this.url}/_sandbox/snapshots`,
      auth: false,
      signal: this.signal,
    });
    return response.body.snapshots;
  }

  async #post(path: string, json: unknown): Promise<SnapshotResult> {
    const session = await this.http.send<{ token: string }>({ method: 'GET', path: `${this.url}/_sandbox/session`, auth: false, signal: this.signal });
    const response = await this.http.send<SnapshotResult>({
      method: 'POST',
      path: `${this.url}${path}`,
      json,
      auth: false,
      idempotencyKey: false,
      headers: { 'x-sandbox-token': session.body.token },
      signal: this.signal,
    });
    return response.body;
  }
}
