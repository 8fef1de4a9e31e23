/**
 * Keeps the k best (score, doc) pairs seen, in O(log k) per offer. Ties break toward the
 * smaller key (the store's document number), so results depend neither on iteration order nor
 * on how the index is split into segments.
 */
export class TopK {
  private readonly scores: Float64Array;
  private readonly docs: Int32Array;
  private readonly keys: Float64Array;
  size = 0;

  /** `keyOf(doc)` gives the tie-break key; it is asked only for documents that make the cut. */
  constructor(
    readonly capacity: number,
    private readonly keyOf: (doc: number) => number = (doc) => doc,
  ) {
    this.scores = new Float64Array(capacity);
    this.docs = new Int32Array(capacity);
    this.keys = new Float64Array(capacity);
  }

  offer(score: number, doc: number): void {
    if (this.size < this.capacity) {
      let i = this.size++;
      this.scores[i] = score;
      this.docs[i] = doc;
      this.keys[i] = this.keyOf(doc);
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(i, parent)) break;
        this.swap(i, parent);
        i = parent;
      }
      return;
    }
    if (this.capacity === 0) return;
    // Replace the worst (the root) when the newcomer beats it.
    if (score < this.scores[0]!) return;
    const key = this.keyOf(doc);
    if (score === this.scores[0]! && key > this.keys[0]!) return;
    this.scores[0] = score;
    this.docs[0] = doc;
    this.keys[0] = key;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < this.size && this.worse(l, worst)) worst = l;
      if (r < this.size && this.worse(r, worst)) worst = r;
      if (worst === i) break;
      this.swap(i, worst);
      i = worst;
    }
  }

  /** The documents kept, best first. */
  sorted(): Array<{ doc: number; score: number }> {
    const out: Array<{ doc: number; score: number; key: number }> = [];
    for (let i = 0; i < this.size; i++) out.push({ doc: this.docs[i]!, score: this.scores[i]!, key: this.keys[i]! });
    return out.sort((a, b) => b.score - a.score || a.key - b.key);
  }

  private worse(a: number, b: number): boolean {
    const sa = this.scores[a]!;
    const sb = this.scores[b]!;
    return sa < sb || (sa === sb && this.keys[a]! > this.keys[b]!);
  }

  private swap(a: number, b: number): void {
    const s = this.scores[a]!;
    this.scores[a] = this.scores[b]!;
    this.scores[b] = s;
    const d = this.docs[a]!;
    this.docs[a] = this.docs[b]!;
    this.docs[b] = d;
    const k = this.keys[a]!;
    this.keys[a] = this.keys[b]!;
    this.keys[b] = k;
  }
}
