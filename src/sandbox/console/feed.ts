// The console's live request log: server-sent events (text/event-stream) to every open
// console page. A new page first gets the recent entries, then each answer as it goes out;
// `state` events tell pages that the state was replaced (restore, reset).
import type { ServerResponse } from 'node:http';
import type { RequestLogEntry } from '../context.js';

/** Entries a newly opened page is sent first. */
const BACKLOG = 200;
/** A comment line this often keeps proxies and browsers from timing the stream out. */
const HEARTBEAT_MS = 15_000;

export class RequestFeed {
  readonly #pages = new Set<ServerResponse>();

  constructor(private readonly recent: () => readonly RequestLogEntry[]) {}

  /** Answers with the stream and keeps it open until the page goes away. */
  open(res: ServerResponse, headers: Record<string, string>): void {
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    const backlog = this.recent().filter(shown).slice(-BACKLOG);
    res.write(`retry: 1000\n\n${backlog.map(frame).join('')}`);
    this.#pages.add(res);
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    res.on('close', () => {
      clearInterval(heartbeat);
      this.#pages.delete(res);
    });
  }

  request(entry: RequestLogEntry): void {
    if (!shown(entry)) return;
    this.#send(frame(entry));
  }

  stateReplaced(what: string): void {
    this.#send(`event: state\ndata: ${JSON.stringify({ what })}\n\n`);
  }

  #send(text: string): void {
    for (const page of this.#pages) page.write(text);
  }
}

/** The console's own calls would drown the log. */
function shown(entry: RequestLogEntry): boolean {
  return !entry.path.startsWith('/_sandbox/');
}

/** JSON.stringify leaves no raw newline in a data line: one event per entry. */
function frame(entry: RequestLogEntry): string {
  return `id: ${entry.seq}\nevent: request\ndata: ${JSON.stringify(entry)}\n\n`;
}
