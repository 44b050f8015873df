// NDJSON files that runs append to and that outlive them (a bulk journal, a webhook capture):
// a record cut short (the machine went down mid-write, a disk filled up) is closed off before
// the next is appended, or it would swallow that record too.
import fs from 'node:fs';

/** Whether the file is empty or its last byte ends a line. */
export function endsWithNewline(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const last = Buffer.alloc(1);
    return size === 0 || (fs.readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === 0x0a);
  } finally {
    fs.closeSync(fd);
  }
}
