// Loaded with `node --import` into a CLI process under test: a slow disk under the journal,
// and a witness of what was durable when each request left. Files opened under
// $JOURNAL_DURABILITY_DIR count as durable only up to what a completed fsync covered; their
// fsyncs finish late (so a request that does not wait for one is seen leaving before it).
// Each request with an Idempotency-Key appends `durable KEY` or `not-durable KEY` to
// $JOURNAL_DURABILITY_LOG: whether the journal's sent record for KEY was on disk as undici
// created the request (diagnostics channel undici:request:create, before anything is written
// to the socket).
import diagnostics from 'node:diagnostics_channel';
import fs from 'node:fs';
import path from 'node:path';

const dir = path.resolve(process.env.JOURNAL_DURABILITY_DIR ?? '.');
const log = process.env.JOURNAL_DURABILITY_LOG;
/** Watched files by fd: their path, bytes written, and bytes a completed fsync covered. */
const watched = new Map();

const { openSync, writeSync, fsync, closeSync, appendFileSync, readFileSync } = fs;
fs.openSync = function (file, ...rest) {
  const fd = openSync.call(this, file, ...rest);
  if (typeof file === 'string' && path.resolve(file).startsWith(`${dir}${path.sep}`)) watched.set(fd, { file, written: 0, durable: 0 });
  return fd;
};
fs.closeSync = function (fd) {
  watched.delete(fd);
  return closeSync.call(this, fd);
};
fs.writeSync = function (fd, ...rest) {
  const written = writeSync.call(this, fd, ...rest);
  const state = watched.get(fd);
  if (state) state.written += written;
  return written;
};
fs.fsync = function (fd, callback) {
  const state = watched.get(fd);
  if (!state) return fsync.call(this, fd, callback);
  const covered = state.written;
  return fsync.call(this, fd, (error) => {
    // A slow disk: the flush completes well after the records were handed to it.
    setTimeout(() => {
      if (!error) state.durable = Math.max(state.durable, covered);
      callback(error);
    }, 30);
  });
};

/** The Idempotency-Key of a request as undici holds its headers (a flat array, or raw text). */
function idempotencyKey(headers) {
  const text = Array.isArray(headers) ? headers.map((h, i) => (i % 2 ? `${h}\n` : `${h}: `)).join('') : String(headers ?? '');
  return /^idempotency-key:\s*(\S+)/im.exec(text)?.[1];
}

function durableSent(key) {
  for (const state of watched.values()) {
    const durable = readFileSync(state.file).subarray(0, state.durable).toString('utf8');
    if (durable.split('\n').some((line) => line.startsWith('{"type":"sent"') && line.includes(`"key":"${key}"`))) return true;
  }
  return false;
}

diagnostics.subscribe('undici:request:create', ({ request }) => {
  const key = idempotencyKey(request.headers);
  if (key && log) appendFileSync(log, `${durableSent(key) ? 'durable' : 'not-durable'} ${key}\n`);
});
