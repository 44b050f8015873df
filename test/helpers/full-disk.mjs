// Loaded with `node --import` into a CLI process under test: a disk that fills up. Files
// opened under $FULL_DISK_DIR share $FULL_DISK_BYTES bytes; the write that crosses the limit
// lands in part, and every write and fsync after it fails with ENOSPC, as on a full disk
// (a size-limited tmpfs needs root to mount; this runs anywhere).
import fs from 'node:fs';
import path from 'node:path';

const dir = process.env.FULL_DISK_DIR && path.resolve(process.env.FULL_DISK_DIR);
let left = Number(process.env.FULL_DISK_BYTES ?? 0);
const watched = new Set();

const enospc = (syscall) => Object.assign(new Error(`ENOSPC: no space left on device, ${syscall}`), { code: 'ENOSPC', errno: -28, syscall });

const { openSync, writeSync, write, writev, fsync, fsyncSync, closeSync } = fs;
fs.openSync = function (file, ...rest) {
  const fd = openSync.call(this, file, ...rest);
  if (dir && typeof file === 'string' && path.resolve(file).startsWith(`${dir}${path.sep}`)) watched.add(fd);
  return fd;
};
fs.closeSync = function (fd) {
  watched.delete(fd);
  return closeSync.call(this, fd);
};
fs.writeSync = function (fd, data, ...rest) {
  if (!watched.has(fd)) return writeSync.call(this, fd, data, ...rest);
  if (left <= 0) throw enospc('write');
  // (buffer, offset, length) as the journal writes, or a string
  const buffer =
    typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset + (rest[0] ?? 0), rest[1] ?? data.byteLength - (rest[0] ?? 0));
  const length = Math.min(left, buffer.length);
  left -= length;
  return writeSync.call(this, fd, buffer, 0, length);
};
fs.fsync = function (fd, callback) {
  if (watched.has(fd) && left <= 0) return process.nextTick(callback, enospc('fsync'));
  return fsync.call(this, fd, callback);
};
fs.fsyncSync = function (fd) {
  if (watched.has(fd) && left <= 0) throw enospc('fsync');
  return fsyncSync.call(this, fd);
};
// Asynchronous writes (a write stream opened on a descriptor, as the bulk spool's): the same
// shared room, then ENOSPC.
fs.write = function (fd, data, ...rest) {
  if (!watched.has(fd)) return write.call(this, fd, data, ...rest);
  const callback = rest.pop();
  if (left <= 0) return process.nextTick(callback, enospc('write'));
  const buffer =
    typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset + (rest[0] ?? 0), rest[1] ?? data.byteLength - (rest[0] ?? 0));
  const length = Math.min(left, buffer.length);
  left -= length;
  return write.call(this, fd, buffer, 0, length, null, callback);
};
fs.writev = function (fd, buffers, ...rest) {
  if (!watched.has(fd)) return writev.call(this, fd, buffers, ...rest);
  const callback = rest.pop();
  return fs.write(fd, Buffer.concat(buffers), (error, written) => callback(error, written, buffers));
};
