// Words a person reads for the enums a delivery carries; the enum itself goes in the tooltip.
import type { SendResult } from '../../delivery.js';
import type { InboxRecord, InboxSend } from '../store.js';

const STATUS_LABELS: Record<string, string> = {
  processing: 'Processing',
  no_drivers_available: 'No drivers',
  accepted: 'Accepted',
  arriving: 'Arriving',
  in_progress: 'In progress',
  driver_canceled: 'Driver canceled',
  rider_canceled: 'Rider canceled',
  completed: 'Completed',
  ready: 'Receipt ready',
};

/** "In progress" for in_progress; an unknown status as it came, underscores as spaces. */
export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status.replace(/_/g, ' ');
}

export function verdictText(r: InboxRecord): 'valid' | 'invalid' {
  return r.verdict.valid ? 'valid' : 'invalid';
}

/** The verdict, with the credentials' when listen checks them. */
export function verdictCell(r: InboxRecord): string {
  return verdictText(r) + (r.auth ? `, ${r.auth.authorized ? 'authorized' : 'unauthorized'}` : '');
}

export function isRefused(r: InboxRecord): boolean {
  return !r.verdict.valid || (r.auth !== undefined && !r.auth.authorized);
}

export function resultText(result: SendResult): string {
  return 'status' in result ? `HTTP ${result.status}` : result.error;
}

export function isAccepted(result: SendResult): boolean {
  return 'status' in result && result.status >= 200 && result.status < 300;
}

export function sendLine(s: InboxSend): string {
  return `${s.kind} (${s.signing}) to ${s.url}: ${resultText(s.result)}`;
}

/** 14:05:09 of 2026-11-28T14:05:09.123Z: the list shows the time, the title the whole instant. */
export function timeOf(iso: string): string {
  return /T(\d\d:\d\d:\d\d)/.exec(iso)?.[1] ?? iso;
}
