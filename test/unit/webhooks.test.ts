// The small modules of src/webhooks: header blocks, the delivery rules, the back-off
// schedule (on a recording fake sleep), capture lines and replay input.
import { describe, expect, it } from 'vitest';
import { captureLine, parseReplayInput, ReplayInputError } from '../../src/webhooks/capture.js';
import { backoffSchedule, classify, deliver, type SendResult } from '../../src/webhooks/delivery.js';
import { buildEvent, eventBody, readEventFields } from '../../src/webhooks/events.js';
import { parseHeaderBlock } from '../../src/webhooks/headers.js';
import { EventLedger } from '../../src/webhooks/ledger.js';
import { parseChaos } from '../../src/sandbox/webhooks/index.js';

describe('parseHeaderBlock', () => {
  it('reads a raw request as copied from a proxy: request line, CRLF, any case, stops at the body', () => {
    const block = parseHeaderBlock(
      'POST /hooks HTTP/1.1\r\nHost: example.com\r\nx-platform-signature: abc\r\nX-Environment: sandbox\r\n\r\n{"X-Platform-Signature: no":1}',
    );
    expect(block.get('X-Platform-Signature')).toEqual(['abc']);
    expect(block.get('x-environment')).toEqual(['sandbox']);
    expect(block.headers.map(([n]) => n)).toEqual(['Host', 'x-platform-signature', 'X-Environment']);
  });

  it('reads curl -v lines, folded values, and logged header objects; keeps odd whitespace in the value', () => {
    expect(parseHeaderBlock('> POST / HTTP/1.1\n> X-Platform-Signature:  abc \n> \n').get('X-Platform-Signature')).toEqual([' abc ']);
    expect(parseHeaderBlock('X-Long: a\n  b\nX-Environment: production').get('x-long')).toEqual(['a b']);
    const logged = parseHeaderBlock('{\n  "x-platform-signature": "abc",\n  "x-environment": "sandbox"\n}');
    expect(logged.get('X-Platform-Signature')).toEqual(['abc']);
    expect(logged.get('X-Environment')).toEqual(['sandbox']);
    expect(parseHeaderBlock('HTTP/1.1 200 OK\nnothing here\n').headers).toEqual([]);
  });
});

describe('EventLedger (spec 6.3.1)', () => {
  const ev = (status: string, type = 'requests.status_changed', id = 'r1', time = 100) => ({ event_type: type, resource_id: id, status, event_time: time });

  it('ignores a repeat of (event_type, resource id, status), flags older statuses and keeps the latest', () => {
    const ledger = new EventLedger();
    expect(ledger.observe(ev('processing'))).toEqual({ duplicate: false, outOfOrder: false, latest: 'processing' });
    expect(ledger.observe(ev('in_progress'))).toEqual({ duplicate: false, outOfOrder: false, latest: 'in_progress' });
    expect(ledger.observe(ev('accepted'))).toEqual({ duplicate: false, outOfOrder: true, latest: 'in_progress' });
    expect(ledger.observe(ev('in_progress'))).toEqual({ duplicate: true, outOfOrder: false, latest: 'in_progress' });
    // Another type or resource is its own sequence.
    expect(ledger.observe(ev('accepted', 'all_trips.status_changed'))).toMatchObject({ duplicate: false, outOfOrder: false });
    expect(ledger.observe(ev('processing', 'requests.status_changed', 'r2'))).toMatchObject({ outOfOrder: false });
    expect(ledger.observe(ev('completed'))).toMatchObject({ latest: 'completed' });
    expect(ledger.latest()).toContainEqual({ event_type: 'requests.status_changed', resource_id: 'r1', status: 'completed' });
  });

  it('orders unknown statuses by event_time', () => {
    const ledger = new EventLedger();
    ledger.observe(ev('x_later', undefined, 'r', 200));
    expect(ledger.observe(ev('x_earlier', undefined, 'r', 100))).toMatchObject({ outOfOrder: true, latest: 'x_later' });
  });
});

describe('delivery with back-off (spec 6.3.3)', () => {
  it('waits base x 1, 2, 4, ... between at most 7 attempts', () => {
    expect(backoffSchedule(30_000)).toEqual([30_000, 30_000, 60_000, 120_000, 240_000, 480_000]);
    expect(backoffSchedule(10, 3)).toEqual([10, 10]);
  });

  it('accepts 2xx, retries 5xx and unreachable, gives up on 4xx', () => {
    expect(classify({ status: 200 })).toBe('accepted');
    expect(classify({ status: 204 })).toBe('accepted');
    expect(classify({ status: 500 })).toBe('retry');
    expect(classify({ error: 'ECONNREFUSED' })).toBe('retry');
    expect(classify({ status: 400 })).toBe('rejected');
  });

  it('retries until accepted, sleeping the scheduled waits (recorded, not waited)', async () => {
    const slept: number[] = [];
    const answers: SendResult[] = [{ status: 500 }, { error: 'ECONNRESET' }, { status: 200 }];
    const result = await deliver(async () => answers.shift()!, { baseMs: 30_000, sleep: async (ms) => void slept.push(ms) });
    expect(result.accepted).toBe(true);
    expect(result.attempts.map((a) => a.verdict)).toEqual(['retry', 'retry', 'accepted']);
    expect(slept).toEqual([30_000, 30_000]);
  });

  it('makes exactly 7 attempts against a receiver that never accepts, and stops at a 4xx', async () => {
    const slept: number[] = [];
    let calls = 0;
    const never = await deliver(async () => (calls++, { error: 'ECONNREFUSED' }), { sleep: async (ms) => void slept.push(ms) });
    expect(never.accepted).toBe(false);
    expect(calls).toBe(7);
    expect(slept).toEqual(backoffSchedule(30_000));
    const rejected = await deliver(async () => ({ status: 401 }), { sleep: async () => {} });
    expect(rejected).toMatchObject({ accepted: false, attempts: [{ attempt: 1, verdict: 'rejected' }] });
  });
});

describe('events, capture lines and replay input', () => {
  const event = buildEvent({
    type: 'requests.receipt_ready',
    resourceId: 'r1',
    userId: 'u1',
    baseUrl: 'http://127.0.0.1:4010/',
    now: 1_700_000_000_999,
    eventId: 'e1',
  });

  it('builds the payload of spec 6.1 in its key order', () => {
    expect(Object.keys(event)).toEqual(['event_id', 'event_time', 'event_type', 'meta', 'resource_href']);
    expect(event).toEqual({
      event_id: 'e1',
      event_time: 1_700_000_000,
      event_type: 'requests.receipt_ready',
      meta: { user_id: 'u1', resource_id: 'r1', resource_type: 'request_receipt', status: 'ready' },
      resource_href: 'http://127.0.0.1:4010/v1.2/requests/r1/receipts',
    });
    expect(readEventFields(eventBody(event))).toEqual({
      event_id: 'e1',
      event_type: 'requests.receipt_ready',
      resource_id: 'r1',
      status: 'ready',
      event_time: 1_700_000_000,
    });
    expect(readEventFields(Buffer.from('not json'))).toBeUndefined();
  });

  it('round-trips a captured delivery: header case and order, and any bytes of the body', () => {
    const body = Buffer.from([0x7b, 0xff, 0x00, 0x0a]);
    const line = captureLine({ at: 0, method: 'POST', path: '/h', rawHeaders: ['X-Platform-Signature', 'ab', 'x-environment', 'sandbox'], body });
    expect(line.endsWith('\n')).toBe(true);
    const [item] = parseReplayInput(Buffer.from(line));
    expect(item!.body.equals(body)).toBe(true);
    expect(item!.headers).toEqual([
      ['X-Platform-Signature', 'ab'],
      ['x-environment', 'sandbox'],
    ]);
  });

  it('reads hand-written events: one document (its bytes as written), an array, NDJSON; rejects the rest', () => {
    const one = '{\n  "event_type": "requests.status_changed", "event_id": "a\\/b"\n}\n';
    expect(parseReplayInput(Buffer.from(one))[0]!.body.toString()).toBe(one.trimEnd());
    expect(parseReplayInput(Buffer.from('[{"event_type":"a"},{"event_type":"b"}]')).map((i) => i.body.toString())).toEqual([
      '{"event_type":"a"}',
      '{"event_type":"b"}',
    ]);
    expect(parseReplayInput(Buffer.from('{"event_type":"a"}\n\n{"event_type": "b"}\n')).map((i) => i.origin)).toEqual(['line 1', 'line 3']);
    expect(() => parseReplayInput(Buffer.from('{"event_type":"a"}\n{oops'))).toThrow(/line 2 is not JSON/);
    expect(() => parseReplayInput(Buffer.from('{"id":1}'))).toThrow(ReplayInputError);
    expect(() => parseReplayInput(Buffer.from('  '))).toThrow(/empty/);
  });

  it('parses --webhook-chaos', () => {
    expect(parseChaos('0.3')).toEqual({ duplicates: 0.3, reorder: 0.3 });
    expect(parseChaos('duplicates=1,reorder=0.5')).toEqual({ duplicates: 1, reorder: 0.5 });
    expect(parseChaos('dupes=2')).toMatch(/--webhook-chaos/);
  });
});
