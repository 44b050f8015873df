// Streams a file from a pre-signed URL (a completed report's report_url) to a writable
// stream, without credentials: the URL is the only authorisation, and the download origin
// must never see the bearer token. The body is piped, never buffered, so memory stays flat
// whatever the file's size.
import type { Clock } from '../base/io.js';
import { ApiError, CommandError, NetworkError } from '../base/errors.js';
import { REDACTED, type Redactor } from './redact.js';
import { backoffDelay, DEFAULT_RETRY, isConnectionError, isFinalConnectionFailure, isRetryableStatus, type RetryPolicy } from './retry.js';
import type { Dispatcher } from './transport.js';
import { proxyFor, type ProxySettings } from './proxy-env.js';
import { describeConnectionFailure } from './connection-failure.js';

export interface DownloaderOptions {
  dispatcher: Dispatcher;
  clock: Clock;
  redactor: Redactor;
  userAgent: string;
  trace?: (line: string) => void;
  retry?: RetryPolicy;
  random?: () => number;
  /** The proxies the dispatcher uses: a refusal by one is final (retry.ts). */
  proxy?: ProxySettings;
  /** The profile's download_url: report files are fetched from this origin (and path prefix) instead of the report URL's own. */
  downloadUrl?: string;
}

/** Where the bytes go: written in order, each write finished (or its back-pressure met) before the next. */
export interface DownloadSink {
  write(chunk: Buffer): void | Promise<void>;
  /** The body ended: flush and close. */
  end(): void | Promise<void>;
}

export interface DownloadTarget {
  /** A fresh destination for each attempt (a file is truncated; stdout cannot start over). */
  open(): DownloadSink;
  /** Whether a failed attempt that already wrote bytes may start over (false for stdout). */
  restartable: boolean;
}

/** The URL has expired or was refused: the caller may ask the API for a fresh one. */
export class DownloadRefusedError extends ApiError {}

export class Downloader {
  readonly #options: DownloaderOptions;

  constructor(options: DownloaderOptions) {
    this.#options = options;
  }

  /** GETs `url` into the target, with retries; resolves with the bytes written. */
  async download(given: string, target: DownloadTarget, options: { signal?: AbortSignal; onBytes?: (bytes: number) => void } = {}): Promise<number> {
    const url = this.#options.downloadUrl ? atDownloadUrl(given, this.#options.downloadUrl) : given;
    const policy = this.#options.retry ?? DEFAULT_RETRY;
    const shown = `${new URL(url).origin}/${REDACTED}`;
    for (let attempt = 1; ; attempt++) {
      let written = 0;
      try {
        this.#options.trace?.(`> GET ${shown} (no Authorization: the URL is the credential)`);
        const answer = await this.#get(url, target, options.signal, (bytes) => {
          written += bytes;
          options.onBytes?.(written);
        });
        this.#options.trace?.(`< ${answer.status}`);
        if (answer.status !== 200) {
          const detail = describe(this.#options.redactor.text(answer.errorBody)) ?? `HTTP ${answer.status}`;
          if (answer.status === 403 || answer.status === 404) throw new DownloadRefusedError(answer.status, 'DownloadRefused', detail);
          if (isRetryableStatus(answer.status) && attempt < policy.attempts) {
            await this.#wait(policy, attempt, options.signal);
            continue;
          }
          throw new ApiError(answer.status, 'DownloadFailed', detail);
        }
        return written;
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        // An API answer, or the destination's own failure (a full disk): as it is, never retried.
        if (error instanceof ApiError || error instanceof CommandError) throw error;
        // A dropped connection: start over if nothing reached the destination, or if it can be rewritten.
        const viaProxy = proxyFor(url, this.#options.proxy) !== undefined;
        const again =
          isConnectionError(error) && !isFinalConnectionFailure(error, url, viaProxy) && attempt < policy.attempts && (written === 0 || target.restartable);
        if (!again)
          throw new NetworkError(`download from ${new URL(url).origin} failed: ${describeConnectionFailure(error, viaProxy)} after ${written} bytes`, error);
        await this.#wait(policy, attempt, options.signal);
      }
    }
  }

  /**
   * One GET through the dispatcher's handler interface: each chunk goes from the socket
   * straight to the sink (no stream in between); a sink that must wait (stdout under
   * back-pressure) pauses the socket until it can take more. A non-200 answer's body is kept
   * for the error instead.
   */
  #get(url: string, target: DownloadTarget, signal: AbortSignal | undefined, onBytes: (bytes: number) => void): Promise<{ status: number; errorBody: string }> {
    const { origin, pathname, search } = new URL(url);
    return new Promise((resolve, reject) => {
      let status = 0;
      let sink: DownloadSink | undefined;
      let resume: () => void = () => {};
      let failed = false;
      let abortRequest: ((reason: Error) => void) | undefined;
      const errorChunks: Buffer[] = [];
      const onAbort = () => abortRequest?.(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = () => signal?.removeEventListener('abort', onAbort);
      const fail = (error: unknown) => {
        if (failed) return;
        failed = true;
        settle();
        const reason = error instanceof Error ? error : new Error(String(error));
        abortRequest?.(reason);
        reject(reason);
      };
      this.#options.dispatcher.dispatch(
        { origin, path: pathname + search, method: 'GET', headers: { 'user-agent': this.#options.userAgent } },
        {
          onConnect(abort: (reason: Error) => void) {
            abortRequest = abort;
            if (signal?.aborted) onAbort();
          },
          onHeaders(statusCode: number, _headers: unknown, resumeSocket: () => void) {
            status = statusCode;
            resume = resumeSocket;
            if (status !== 200) return true;
            try {
              sink = target.open();
            } catch (error) {
              fail(error);
              return false;
            }
            return true;
          },
          onData(chunk: Buffer) {
            if (failed) return false;
            if (!sink) {
              errorChunks.push(chunk);
              return true;
            }
            try {
              const pending = sink.write(chunk);
              onBytes(chunk.length);
              if (!pending) return true;
              pending.then(() => resume(), fail);
              return false;
            } catch (error) {
              fail(error);
              return false;
            }
          },
          onComplete() {
            if (failed) return;
            settle();
            Promise.resolve(sink?.end())
              .then(() => resolve({ status, errorBody: Buffer.concat(errorChunks).toString('utf8') }))
              .catch(fail);
          },
          onError: fail,
        },
      );
    });
  }

  async #wait(policy: RetryPolicy, attempt: number, signal?: AbortSignal): Promise<void> {
    const delay = backoffDelay(policy, attempt, this.#options.random ?? Math.random, undefined);
    this.#options.trace?.(`* retrying the download in ${delay} ms (attempt ${attempt + 1} of ${policy.attempts})`);
    await this.#options.clock.sleep(delay, signal);
  }
}

/**
 * The report URL with the download_url's origin and path prefix instead of its own origin
 * (http://127.0.0.1:53121/files/x?sig=... -> https://tunnel.example/dl/files/x?sig=...).
 */
export function atDownloadUrl(reportUrl: string, downloadUrl: string): string {
  const from = new URL(reportUrl);
  const to = new URL(downloadUrl);
  return `${to.origin}${to.pathname.replace(/\/+$/, '')}${from.pathname}${from.search}`;
}

/** The `message` of a JSON error body, else the text's first line. */
function describe(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON
  }
  return text.split('\n')[0]?.slice(0, 200) || undefined;
}
