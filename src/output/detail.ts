// One resource in full, for `... view`: aligned "label  value" lines on a terminal (nested
// values indented below their label), the API's object as JSON otherwise or with -o json.
import type { OutputTarget } from '../base/io.js';
import type { View } from './columns.js';
import { resolveFormat } from './format.js';
import { escapeInline } from './terminal-text.js';
import { write } from '../base/stream-write.js';

/** A field and its readable value: text, or a list of lines shown below the label. */
export type DetailField = [label: string, value: string | string[] | undefined];

export async function writeDetail<T>(ctx: OutputTarget, raw: T, fields: DetailField[], csvView?: View<T>): Promise<void> {
  const format = resolveFormat(ctx);
  if ((format !== 'table' && format !== 'wide') || ctx.globals.query !== undefined) {
    const { writeObject } = await import('./rows.js');
    // CSV has columns: the list's (what --from-csv reads back), else the fields shown here.
    await writeObject<T>(ctx, format === 'csv' ? (csvView ?? fieldsView(fields)) : { noun: 'items', columns: [] }, raw);
    return;
  }
  const shown = fields.filter(([, value]) => value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0));
  const width = Math.max(...shown.map(([label]) => label.length));
  const lines: string[] = [];
  for (const [label, value] of shown) {
    if (Array.isArray(value)) {
      lines.push(`${label}:`);
      for (const line of value) lines.push(`  ${escapeInline(line)}`);
    } else {
      lines.push(`${`${label}:`.padEnd(width + 2)}${escapeInline(value!)}`);
    }
  }
  // Each value stays on its line: a newline in a name is shown as \n, as in tables.
  await write(ctx.io.stdout, `${lines.join('\n')}\n`);
}

/** The fields as CSV columns: label as the header, a list's lines joined by |. */
function fieldsView<T>(fields: DetailField[]): View<T> {
  return {
    noun: 'items',
    columns: fields.map(([label, value]) => ({
      header: label,
      name: label.toLowerCase().replace(/[^a-z0-9]+/g, '_'),
      csv: () => (Array.isArray(value) ? value.join('|') : value),
    })),
  };
}
