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

/**
 * Whether the item sets nothing new: describeChanges(...).length === 0, without building
 * its text (this runs for every row of a patch).
 */
export function isUnchanged(item: Record<string, unknown>, current: Record<string, unknown>, idField: string): boolean {
  for (const key of Object.keys(item)) {
    if (key === idField) continue;
    if (!sameLeaves(item[key], key === 'ad_subjects' && 'subjects' in current ? current.subjects : current[key], key)) return false;
  }
  return true;
}

/** The leaves of `wanted` (as flatten sees them) against the same paths of `present`. */
function sameLeaves(wanted: unknown, present: unknown, key: string): boolean {
  if (wanted && typeof wanted === 'object' && !Array.isArray(wanted) && Object.keys(wanted).length) {
    const inner = present && typeof present === 'object' && !Array.isArray(present) ? (present as Record<string, unknown>) : {};
    return Object.entries(wanted).every(([k, v]) => sameLeaves(v, inner[k], k));
  }
  if (typeof wanted !== 'object' && typeof present !== 'object') return key === 'match_type' ? inputSpelling(present, key) === wanted : present === wanted;
  return JSON.stringify(inputSpelling(present, key)) === JSON.stringify(wanted);
}

/** A response value with the input's spellings: `match_type: MATCH_TYPE_EXACT` -> `EXACT`. */
function inputSpelling(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => inputSpelling(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inputSpelling(v, k)]));
  return key === 'match_type' && typeof value === 'string' ? value.replace(/^MATCH_TYPE_/, '') : value;
}
