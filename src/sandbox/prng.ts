// Deterministic pseudo-random numbers for the seed (mulberry32) and UUID-shaped ids from them.

export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function u32(rng: Rng): number {
  return Math.floor(rng() * 4294967296) >>> 0;
}

const hex8 = (n: number) => n.toString(16).padStart(8, '0');

/** A version-4-shaped UUID drawn from `rng`. */
export function uuidFrom(rng: Rng): string {
  const a = hex8(u32(rng));
  const b = hex8(u32(rng));
  const c = hex8(u32(rng));
  const d = hex8(u32(rng));
  const variant = ((parseInt(c[0]!, 16) & 0x3) | 0x8).toString(16);
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${variant}${c.slice(1, 4)}-${c.slice(4)}${d}`;
}

export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!;
}

/** FNV-1a: a stable 32-bit seed from text. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
