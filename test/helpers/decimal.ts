/** A decimal one unit larger, as text: in floats, 0.14 + 1 is 1.1400000000000001 (and 1.09 * 100000 is 109000.00000000001). */
export function oneMore(decimal: string): string {
  const [whole, fraction] = decimal.split('.');
  return `${BigInt(whole!) + 1n}${fraction === undefined ? '' : `.${fraction}`}`;
}
