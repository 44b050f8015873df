// State files are files (issue #42, item 4): what src/base/state-file.ts opens is a regular
// file of a bounded size; a link is not followed, and a device or folder is refused in one
// line without being read. FIFOs need `mkfifo`, a process: test/process/state-files.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StateFileError } from '../../src/base/errors.js';
import { createStateFileStream, openStateFile, readStateFile } from '../../src/base/state-file.js';
import { FileBudget } from '../../src/http/governor-file.js';
import { tempDir } from '../helpers/temp.js';

const options = { what: 'budget file', maxBytes: 1024 };

function refusal(run: () => unknown): StateFileError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(StateFileError);
    return error as StateFileError;
  }
  throw new Error('not refused');
}

describe('readStateFile', () => {
  it('reads a regular file, and gives undefined for one that does not exist', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'a.json'), '{"a":1}');
    expect(readStateFile(path.join(dir, 'a.json'), options)).toBe('{"a":1}');
    expect(readStateFile(path.join(dir, 'none.json'), options)).toBeUndefined();
    expect(readStateFile(path.join(dir, 'none', 'a.json'), options)).toBeUndefined();
  });

  it('reads a file of exactly the limit, and refuses one byte more without reading it', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'full'), 'x'.repeat(1024));
    fs.writeFileSync(path.join(dir, 'over'), 'x'.repeat(1025));
    expect(readStateFile(path.join(dir, 'full'), options)).toHaveLength(1024);
    const error = refusal(() => readStateFile(path.join(dir, 'over'), options));
    expect(error.kind).toBe('too large');
    expect(error.message).toBe(`budget file ${path.join(dir, 'over')} is 1025 bytes, over the 1024 bytes it may be`);
  });

  it('does not follow a link to /dev/zero (or to a regular file) unless told to, and then refuses the device', () => {
    const dir = tempDir();
    const zero = path.join(dir, 'zero');
    fs.symlinkSync('/dev/zero', zero);
    const link = refusal(() => readStateFile(zero, options));
    expect(link.message).toBe(`budget file ${zero} is a symbolic link, not followed`);
    expect(link.kind).toBe('symbolic link');
    const device = refusal(() => readStateFile(zero, { ...options, followLinks: true }));
    expect(device.message).toBe(`budget file ${zero} is a character device, not a regular file`);

    fs.writeFileSync(path.join(dir, 'real'), 'text');
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'to-real'));
    expect(refusal(() => readStateFile(path.join(dir, 'to-real'), options)).kind).toBe('symbolic link');
    expect(readStateFile(path.join(dir, 'to-real'), { ...options, followLinks: true })).toBe('text');
    // A dangling link is not "absent": something is at the path.
    fs.symlinkSync(path.join(dir, 'gone'), path.join(dir, 'dangling'));
    expect(refusal(() => readStateFile(path.join(dir, 'dangling'), options)).kind).toBe('symbolic link');
  });

  it('refuses a folder and a device in one line naming the file and what it is', () => {
    const dir = tempDir();
    const folder = refusal(() => readStateFile(dir, { what: 'plan', maxBytes: 10 }));
    expect(folder.message).toBe(`plan ${dir} is a directory, not a regular file`);
    expect(folder.message).not.toContain('\n');
    expect(refusal(() => readStateFile('/dev/null', options)).message).toBe('budget file /dev/null is a character device, not a regular file');
  });
});

describe('openStateFile and createStateFileStream', () => {
  it('stream a regular file, and refuse what readStateFile refuses before reading', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'journal.ndjson');
    fs.writeFileSync(file, 'a\nb\n');
    let text = '';
    for await (const chunk of createStateFileStream(file, { what: 'journal', maxBytes: 100 }, { encoding: 'utf8' })) text += String(chunk);
    expect(text).toBe('a\nb\n');
    expect(() => createStateFileStream(path.join(dir, 'none'), { what: 'journal', maxBytes: 100 })).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(refusal(() => createStateFileStream(dir, { what: 'journal', maxBytes: 100 })).kind).toBe('directory');
    const opened = openStateFile(file, { what: 'journal', maxBytes: 100 })!;
    expect(opened.size).toBe(4);
    fs.closeSync(opened.fd);
    expect(openStateFile(path.join(dir, 'none'), { what: 'journal', maxBytes: 100 })).toBeUndefined();
  });
});

describe('the request budget file (FileBudget)', () => {
  const clock = { now: () => 1_764_201_600_000, sleep: () => Promise.resolve() };

  it.each([
    ['a link to /dev/zero', (file: string) => fs.symlinkSync('/dev/zero', file), 'is a symbolic link, not followed'],
    ['a file over 64 KiB', (file: string) => fs.writeFileSync(file, ' '.repeat(64 * 1024 + 1)), 'is 65537 bytes, over the 65536 bytes it may be'],
  ])('that is %s is warned about once, not read, and replaced by a fresh budget (not written through)', async (_, make, what) => {
    const file = path.join(tempDir(), 'budgets', 'b.json');
    fs.mkdirSync(path.dirname(file));
    make(file);
    const warnings: string[] = [];
    const budget = new FileBudget(file, clock, (line) => warnings.push(line));
    await budget.update(() => {});
    await budget.update(() => {});
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(what);
    expect(warnings[0]).toMatch(/: ignored, and replaced by a fresh budget$/);
    expect(fs.lstatSync(file).isFile()).toBe(true);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ version: 1 });
  });
});
