// Forwarding of `webhooks listen`: a bounded queue and a few workers, each POST with its own
// timeout, so a receiver that hangs cannot hold every delivery in memory or forward them
// one by one at ten seconds each. Deliveries of one resource stay in arrival order (a
// worker never takes one whose resource is already being forwarded); others overlap.
import type { SendResult } from './delivery.js';
import { postOnce, type PostOptions } from './http-post.js';

export interface ForwardItem {
  /** The delivery's id (the inbox links the answer to it). */
  id?: string;
  /** Deliveries with the same key are forwarded one after the other, in order. */
  key: string;
  label: string;
  body: Buffer;
  headers: Array<[string, string]>;
}

export interface ForwardQueueOptions {
  url: string;
  /** Deliveries waiting at most; past it, `offer` refuses (the listener answers 503). */
  capacity: number;
  concurrency: number;
  timeoutMs: number;
  /** The clock forwards are timed with. */
  now: () => number;
  /** Each finished forward: the target's answer (or why it could not be reached) and how long it took. */
  onForward: (report: ForwardReport) => void;
}

export interface ForwardReport {
  id?: string;
  url: string;
  label: string;
  result: SendResult;
  ms: number;
  /** A 2xx answer; anything else leaves the delivery not forwarded. */
  ok: boolean;
}

export class ForwardQueue {
  readonly #o: ForwardQueueOptions;
  readonly #waiting: ForwardItem[] = [];
  readonly #busyKeys = new Set<string>();
  readonly #stop = new AbortController();
  #inFlight = 0;
  #failed = 0;
  #idle: (() => void) | undefined;

  constructor(options: ForwardQueueOptions) {
    this.#o = options;
  }

  /** Queues a delivery; false when the queue is full. */
  offer(item: ForwardItem): boolean {
    if (this.#stop.signal.aborted || this.#waiting.length >= this.#o.capacity) return false;
    this.#waiting.push(item);
    this.#pump();
    return true;
  }

  /** Deliveries queued or being forwarded now. */
  get pending(): number {
    return this.#waiting.length + this.#inFlight;
  }

  /** Waits until every queued delivery was forwarded (or failed). */
  drained(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => (this.#idle = resolve));
  }

  /** Stops at once: forwards in flight are aborted; returns how many deliveries were not forwarded (failed, or left unsent). */
  abort(): number {
    const left = this.pending;
    this.#waiting.length = 0;
    this.#stop.abort();
    return this.#failed + left;
  }

  #pump(): void {
    while (this.#inFlight < this.#o.concurrency) {
      const index = this.#waiting.findIndex((item) => !this.#busyKeys.has(item.key));
      if (index < 0) return;
      const [item] = this.#waiting.splice(index, 1);
      void this.#forward(item!);
    }
  }

  async #forward(item: ForwardItem): Promise<void> {
    this.#inFlight++;
    this.#busyKeys.add(item.key);
    const options: PostOptions = { timeoutMs: this.#o.timeoutMs, signal: this.#stop.signal };
    const started = this.#o.now();
    const result = await postOnce(this.#o.url, item.body, item.headers, options);
    this.#inFlight--;
    this.#busyKeys.delete(item.key);
    // One aborted by Ctrl-C is counted by abort() as left unsent.
    if (!this.#stop.signal.aborted) {
      const ok = 'status' in result && result.status >= 200 && result.status < 300;
      if (!ok) this.#failed++;
      this.#o.onForward({ id: item.id, url: this.#o.url, label: item.label, result, ms: this.#o.now() - started, ok });
    }
    this.#pump();
    if (this.pending === 0) this.#idle?.();
  }
}
