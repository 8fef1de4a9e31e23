/**
 * The forward index's varints: what `pushVarint` writes, `readDeltas` reads back, for every
 * byte length a term id can take, and a cut-short entry never reads past its end.
 */
import { describe, expect, it } from 'vitest';
import { GrowableArray, pushVarint, readDeltas } from '../../../src/search/index/columns.js';

describe('forward-index varints', () => {
  it('read back ascending ids whose deltas take one to five bytes', () => {
    const deltas = [0, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152, 268_435_455, 268_435_456];
    const bytes = new GrowableArray(Uint8Array);
    for (const delta of deltas) pushVarint(bytes, delta);
    expect(bytes.length).toBe(1 + 1 + 2 + 2 + 3 + 3 + 4 + 4 + 5);
    const out = new Uint32Array(bytes.length);
    const read = Array.from(out.subarray(0, readDeltas(bytes.raw, 0, bytes.length, out)));
    let id = 0;
    expect(read).toEqual(deltas.map((delta) => (id += delta)));
  });

  it('read only their own entry: a delta cut short by the entry end ends the entry', () => {
    const bytes = new GrowableArray(Uint8Array);
    pushVarint(bytes, 5);
    pushVarint(bytes, 200); // two bytes; the entry below ends after the first
    pushVarint(bytes, 1);
    const out = new Uint32Array(2);
    const read = Array.from(out.subarray(0, readDeltas(bytes.raw, 0, 2, out)));
    expect(read).toEqual([5, 5 + (200 & 0x7f)]);
  });
});
