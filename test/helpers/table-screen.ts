// Reads a table back from what a terminal shows: its headers, and for each row the lines of
// each cell (a cell wraps onto more lines of its row). Columns are found from the header line
// and the gutters, the runs of two spaces that every line has at the same place.

export interface TableScreen {
  headers: string[];
  /** One entry per row: each header's cell, as its lines (trimmed; [] when the cell is empty). */
  rows: Array<Record<string, string[]>>;
  /** The widest line, in characters. */
  width: number;
}

export function readTable(text: string): TableScreen {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const chars = lines.map((line) => Array.from(line.trimEnd()));
  const width = Math.max(0, ...chars.map((line) => line.length));
  const space = (p: number) => chars.every((line) => line[p] === undefined || line[p] === ' ');
  const tokens = [...lines[0]!.matchAll(/\S+(?: \S+)*/g)].map((m) => ({ name: m[0], start: Array.from(lines[0]!.slice(0, m.index)).length }));
  const regions: Array<[number, number]> = [];
  let start = 0;
  for (const [i, token] of tokens.entries()) {
    let end = Math.max(start, token.start + Array.from(token.name).length);
    if (i === tokens.length - 1) end = width;
    else while (end < width && !(space(end) && space(end + 1))) end++;
    regions.push([start, end]);
    start = end + 2;
  }
  const cell = (line: string[], [from, to]: [number, number]) => line.slice(from, to).join('').trim();
  const rows: Array<Record<string, string[]>> = [];
  for (const line of chars.slice(1)) {
    if (cell(line, regions[0]!) !== '' || rows.length === 0) rows.push(Object.fromEntries(tokens.map((t) => [t.name, []])));
    const row = rows.at(-1)!;
    tokens.forEach((t, i) => {
      const value = cell(line, regions[i]!);
      if (value !== '') row[t.name]!.push(value);
    });
  }
  return { headers: tokens.map((t) => t.name), rows, width };
}
