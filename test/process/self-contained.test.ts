// A clone of this repository is the whole project: no tracked file reads or cites a document
// that lives beside it (the team's shared folder, its design notes or its copy of the spec).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const OUTSIDE = [/\.\.\/shared\b/, /\bdesign\.md\b/, /\bplatform-api\.md\b/, /reference\/ads-openapi\.json/];

describe('the repository is self-contained', () => {
  it('no tracked file refers to a document outside the repository', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((f) => f && f !== 'package-lock.json' && !f.endsWith('.json') && f !== 'test/process/self-contained.test.ts');
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.flatMap((file) => {
      const full = path.join(root, file);
      if (!fs.existsSync(full)) return [];
      const lines = fs.readFileSync(full, 'utf8').split('\n');
      return lines.flatMap((line, i) => (OUTSIDE.some((re) => re.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
    });
    expect(offenders).toEqual([]);
  });
});
