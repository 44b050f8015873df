// Operator mutants found in the TypeScript syntax tree of a file: each is a span of the
// original text and what replaces it. Only code is touched (types, comments and strings are
// left alone), and every replacement still parses, so esbuild builds it.
import ts from 'typescript';

const SWAP = {
  [ts.SyntaxKind.EqualsEqualsEqualsToken]: '!==',
  [ts.SyntaxKind.ExclamationEqualsEqualsToken]: '===',
  [ts.SyntaxKind.EqualsEqualsToken]: '!=',
  [ts.SyntaxKind.ExclamationEqualsToken]: '==',
  [ts.SyntaxKind.LessThanToken]: '<=',
  [ts.SyntaxKind.LessThanEqualsToken]: '<',
  [ts.SyntaxKind.GreaterThanToken]: '>=',
  [ts.SyntaxKind.GreaterThanEqualsToken]: '>',
  [ts.SyntaxKind.AmpersandAmpersandToken]: '||',
  [ts.SyntaxKind.BarBarToken]: '&&',
};
const KIND_OF_SWAP = {
  '!==': 'equality',
  '===': 'equality',
  '!=': 'equality',
  '==': 'equality',
  '<=': 'boundary',
  '<': 'boundary',
  '>=': 'boundary',
  '>': 'boundary',
  '||': 'logical',
  '&&': 'logical',
};

/** Calls whose loss loses data or durability: journal records, writes, fsyncs, results. */
const EFFECT_CALL = /journal|fsync|[wW]rite|flush|\.sent\b|\.done\b|close|abandon|settle|notify|onResult/;
const SLICES = new Set(['slice', 'subarray', 'substring']);

function returnsBoolean(fn) {
  return fn?.type?.kind === ts.SyntaxKind.BooleanKeyword;
}

/** Every operator mutant of `text` (a .ts file), in source order. */
export function generateMutants(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out = [];
  const add = (node, start, end, replacement, kind, description) => {
    const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
    out.push({ file, line: line + 1, column: character + 1, start, end, replacement, kind, description });
  };
  const textOf = (node) => node.getText(source);
  const short = (node) => {
    const t = textOf(node).replace(/\s+/g, ' ');
    return t.length > 60 ? `${t.slice(0, 57)}...` : t;
  };
  let fn;

  const visit = (node) => {
    const outer = fn;
    if (ts.isFunctionLike(node)) fn = node;
    // Types are not code: nothing in them is mutated.
    if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isImportDeclaration(node)) {
      fn = outer;
      return;
    }
    if (ts.isBinaryExpression(node) && SWAP[node.operatorToken.kind]) {
      const op = node.operatorToken;
      const to = SWAP[op.kind];
      add(node, op.getStart(source), op.getEnd(), to, KIND_OF_SWAP[to], `${op.getText(source)} -> ${to} in ${short(node)}`);
    }
    if (ts.isAwaitExpression(node) && !ts.isForOfStatement(node.parent)) {
      add(node, node.getStart(source), node.expression.getStart(source), '', 'await', `drop await: ${short(node)}`);
    }
    if (ts.isExpressionStatement(node) && EFFECT_CALL.test(textOf(node.expression)) && !ts.isBinaryExpression(node.expression)) {
      add(node, node.getStart(source), node.getEnd(), '{}', 'statement', `delete statement: ${short(node)}`);
    }
    if (ts.isReturnStatement(node) && node.expression && returnsBoolean(fn)) {
      for (const literal of ['true', 'false']) {
        if (textOf(node.expression) !== literal)
          add(node, node.expression.getStart(source), node.expression.getEnd(), literal, 'boolean', `return ${literal} instead of ${short(node.expression)}`);
      }
    }
    if ((node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword) && !ts.isTypeNode(node.parent)) {
      const flipped = node.kind === ts.SyntaxKind.TrueKeyword ? 'false' : 'true';
      add(node, node.getStart(source), node.getEnd(), flipped, 'boolean', `${textOf(node)} -> ${flipped} in ${short(node.parent)}`);
    }
    if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken) {
      add(node, node.getStart(source), node.operand.getStart(source), '', 'negation', `drop ! in ${short(node)}`);
    }
    if (ts.isObjectLiteralExpression(node)) {
      const props = node.properties;
      props.forEach((prop, i) => {
        // Up to the next property, or (the last one) from the end of the one before.
        const [start, end] =
          i + 1 < props.length
            ? [prop.getStart(source), props[i + 1].getStart(source)]
            : [i > 0 ? props[i - 1].getEnd() : prop.getStart(source), prop.getEnd()];
        add(prop, start, end, '', 'property', `drop property ${short(prop)}`);
      });
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && SLICES.has(node.expression.name.text)) {
      node.arguments.forEach((arg, i) => {
        const delta = i === 0 ? '+ 1' : '- 1';
        add(
          arg,
          arg.getStart(source),
          arg.getEnd(),
          `(${textOf(arg)}) ${delta}`,
          'off-by-one',
          `${node.expression.name.text} argument ${i + 1}: ${short(arg)} ${delta}`,
        );
      });
    }
    ts.forEachChild(node, visit);
    fn = outer;
  };
  visit(source);
  return out;
}

/** A small seeded generator (mulberry32), so a run's sample is the same for the same seed and source. */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a string: a file's own seed. */
function stringHash(text) {
  let h = 0x811c9dc5;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

function shuffle(list, random) {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/**
 * `count` mutants spread over files and kinds: each file's candidates are shuffled and taken
 * kind by kind in turn; files are taken in turn too, `weight(file)` picks per round.
 */
export function sample(candidates, count, seed, weight) {
  const byFile = new Map();
  for (const mutant of candidates) byFile.set(mutant.file, [...(byFile.get(mutant.file) ?? []), mutant]);
  const queues = new Map();
  for (const [file, list] of byFile) {
    // A generator per file: an edit to one file leaves the other files' samples as they were.
    const random = seeded(seed ^ stringHash(file));
    const byKind = new Map();
    for (const mutant of shuffle(list, random)) byKind.set(mutant.kind, [...(byKind.get(mutant.kind) ?? []), mutant]);
    const interleaved = [];
    const kinds = shuffle([...byKind.keys()].sort(), random);
    while (kinds.some((kind) => byKind.get(kind).length)) for (const kind of kinds) if (byKind.get(kind).length) interleaved.push(byKind.get(kind).shift());
    queues.set(file, interleaved);
  }
  const chosen = [];
  const files = [...queues.keys()].sort();
  while (chosen.length < count && files.some((file) => queues.get(file).length)) {
    for (const file of files) for (let k = 0; k < weight(file) && chosen.length < count && queues.get(file).length; k++) chosen.push(queues.get(file).shift());
  }
  return chosen.sort((a, b) => a.file.localeCompare(b.file) || a.start - b.start);
}
