// What a snapshot may be named (names are file names too), shared by the server and the
// console page's own inline message.

/** Letters, digits, dot, dash, underscore; not starting with a dot; 1-64 characters. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/;

/** Why a name is refused, in words for the person typing it; null when it is good. */
export function snapshotNameProblem(name: string): string | null {
  if (SNAPSHOT_NAME.test(name)) return null;
  if (name === '') return 'Give the snapshot a name, e.g. clean or before-import.';
  if (name.length > 64) return `At most 64 characters; this name has ${name.length}.`;
  if (name.startsWith('.')) return 'A name cannot start with a dot.';
  const bad = [...new Set(name.replace(/[A-Za-z0-9._-]/g, ''))].map((c) => (c === ' ' ? 'space' : JSON.stringify(c))).join(', ');
  return `Only letters, digits, '.', '_' and '-' (a name is also a file name); not ${bad}.`;
}
