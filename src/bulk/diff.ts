// "What would change": the fields a patch item sets, against the current resource.

function flatten(value: unknown, prefix: string, out: Map<string, unknown>): void {
  if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, out);
  } else {
    out.set(prefix, value);
  }
}

const show = (value: unknown) => (value === undefined ? '(none)' : typeof value === 'string' ? value : JSON.stringify(value));

/** `name: Old -> New; budget.total.amount_e5: 100 -> 200` for the fields that differ. */
export function describeChanges(item: Record<string, unknown>, current: Record<string, unknown> | undefined, idField: string): string[] {
  const wanted = new Map<string, unknown>();
  flatten(item, '', wanted);
  const present = new Map<string, unknown>();
  // A patch's ad_subjects is the response's subjects; its match types are spelled EXACT/BROAD.
  const currentInput = current && 'subjects' in current ? { ...current, ad_subjects: current.subjects } : current;
  flatten(inputSpelling(currentInput ?? {}), '', present);
  const changes: string[] = [];
  for (const [path, value] of wanted) {
    if (path === idField) continue;
    const before = present.get(path);
    if (JSON.stringify(before) !== JSON.stringify(value)) changes.push(`${path}: ${show(before)} -> ${show(value)}`);
  }
  return changes;
}

/** A response value with the input's spellings: `match_type: MATCH_TYPE_EXACT` -> `EXACT`. */
function inputSpelling(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => inputSpelling(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inputSpelling(v, k)]));
  return key === 'match_type' && typeof value === 'string' ? value.replace(/^MATCH_TYPE_/, '') : value;
}
