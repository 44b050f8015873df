// Advice that names a command to run lives in the command layer (src/commands/advice.ts and
// the commands themselves): the layers below say what happened, and the command layer says
// what to do. This reads every string in src outside that layer (parsed with TypeScript, so
// comments do not count) and fails on one that names a `platform` command.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
/** Where naming commands is the job: the command layer, the program's own help, and the sandbox (a program of its own with its own hints). */
const COMMAND_LAYER = /^src\/(commands\/|sandbox\/|cli\.ts$|main\.ts$)/;
const COMMAND = /\bplatform (auth|ads|rider|webhooks|sandbox|config|api|delivery|completion)\b/;
/** Strings that name the tool rather than advise: the creator of a HAR export. */
const NOT_ADVICE = new Set(['platform webhooks listen --inspect']);

function strings(file: string): Array<{ line: number; text: string }> {
  const source = fs.readFileSync(path.join(root, file), 'utf8');
  const found: Array<{ line: number; text: string }> = [];
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest);
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node))
      found.push({ line: sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1, text: node.text });
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

describe('advice that names commands', () => {
  it('is written only in the command layer', () => {
    const files = (fs.readdirSync(path.join(root, 'src'), { recursive: true }) as string[])
      .map((f) => `src/${f.split(path.sep).join('/')}`)
      .filter((f) => f.endsWith('.ts') && !COMMAND_LAYER.test(f));
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.flatMap((file) =>
      strings(file)
        .filter(({ text }) => COMMAND.test(text) && !NOT_ADVICE.has(text))
        .map(({ line, text }) => `${file}:${line}: ${text}`),
    );
    expect(offenders).toEqual([]);
  });
});
