// Small deterministic PRNG (mulberry32) for the fixture generators (bench/gen-fixtures.mjs,
// bench/gen-docs.mjs, tests/hosts/fixtures.mjs): rng(seed) returns a function giving the next
// number in [0, 1), the same sequence for the same seed on every run.
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
