/**
 * Latent semantic analysis of the library: a truncated SVD of the documents' tf-idf matrix (rows
 * L2-normalized), by a randomized range finder with one power iteration (Halko, Martinsson and
 * Tropp 2011) and CholeskyQR2, all in Float64 on the CPU. Gives each term a k-vector (V) and each
 * document its projection (U·S); a query's terms fold in as Vᵀq and documents are ranked by cosine.
 */
import type { Corpus } from './corpus.js';

export interface Lsa {
  k: number;
  /** Term t's column in the space (-1: not in it, too rare or too common); its vector is termVec[col*k .. col*k+k]. */
  col: Int32Array;
  termVec: Float32Array;
  /** Document d's unit vector: docVec[d*k .. d*k+k]. */
  docVec: Float32Array;
  idf: Float32Array;
}

/** A deterministic generator (mulberry32), so that the same library gives the same space. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
}

/** Y (n×m) = X (n×T) · W (T×m), X sparse by rows. */
function times(x: Sparse, w: Float64Array, m: number): Float64Array {
  const y = new Float64Array(x.n * m);
  for (let d = 0; d < x.n; d++) {
    const row = d * m;
    for (let p = x.start[d]!; p < x.start[d + 1]!; p++) {
      const v = x.value[p]!;
      const col = x.col[p]! * m;
      for (let c = 0; c < m; c++) y[row + c]! += v * w[col + c]!;
    }
  }
  return y;
}

/** Z (T×m) = Xᵀ · Y (n×m). */
function timesT(x: Sparse, y: Float64Array, m: number): Float64Array {
  const z = new Float64Array(x.t * m);
  for (let d = 0; d < x.n; d++) {
    const row = d * m;
    for (let p = x.start[d]!; p < x.start[d + 1]!; p++) {
      const v = x.value[p]!;
      const col = x.col[p]! * m;
      for (let c = 0; c < m; c++) z[col + c]! += v * y[row + c]!;
    }
  }
  return z;
}

/** AᵀA of a row-major n×m matrix. */
function gram(a: Float64Array, n: number, m: number): Float64Array {
  const g = new Float64Array(m * m);
  for (let r = 0; r < n; r++) {
    const o = r * m;
    for (let i = 0; i < m; i++) {
      const ai = a[o + i]!;
      if (ai === 0) continue;
      const gi = i * m;
      for (let j = i; j < m; j++) g[gi + j]! += ai * a[o + j]!;
    }
  }
  for (let i = 0; i < m; i++) for (let j = 0; j < i; j++) g[i * m + j] = g[j * m + i]!;
  return g;
}

/** Orthonormalizes the columns of a (n×m) in place: A ← A R⁻¹ with RᵀR = AᵀA, twice. */
function orthonormalize(a: Float64Array, n: number, m: number): void {
  for (let pass = 0; pass < 2; pass++) {
    const g = gram(a, n, m);
    // Cholesky, upper R; a tiny ridge keeps it defined when columns are dependent.
    const r = new Float64Array(m * m);
    for (let i = 0; i < m; i++) {
      let s = g[i * m + i]! + 1e-12;
      for (let k = 0; k < i; k++) s -= r[k * m + i]! ** 2;
      const rii = Math.sqrt(Math.max(s, 1e-300));
      r[i * m + i] = rii;
      for (let j = i + 1; j < m; j++) {
        let t = g[i * m + j]!;
        for (let k = 0; k < i; k++) t -= r[k * m + i]! * r[k * m + j]!;
        r[i * m + j] = t / rii;
      }
    }
    // Each row x ← x R⁻¹ (forward substitution on xᵀ = Rᵀ yᵀ).
    const row = new Float64Array(m);
    for (let d = 0; d < n; d++) {
      const o = d * m;
      for (let j = 0; j < m; j++) {
        let t = a[o + j]!;
        for (let k = 0; k < j; k++) t -= row[k]! * r[k * m + j]!;
        row[j] = t / r[j * m + j]!;
      }
      for (let j = 0; j < m; j++) a[o + j] = row[j]!;
    }
  }
}

/** Eigen-decomposition of a symmetric m×m matrix by cyclic Jacobi: values descending, vectors as columns. */
function eigen(s: Float64Array, m: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(s);
  const v = new Float64Array(m * m);
  for (let i = 0; i < m; i++) v[i * m + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let i = 0; i < m; i++) for (let j = i + 1; j < m; j++) off += a[i * m + j]! ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < m; p++) {
      for (let q = p + 1; q < m; q++) {
        const apq = a[p * m + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * m + q]! - a[p * m + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const sn = t * c;
        for (let k = 0; k < m; k++) {
          const akp = a[k * m + p]!;
          const akq = a[k * m + q]!;
          a[k * m + p] = c * akp - sn * akq;
          a[k * m + q] = sn * akp + c * akq;
        }
        for (let k = 0; k < m; k++) {
          const apk = a[p * m + k]!;
          const aqk = a[q * m + k]!;
          a[p * m + k] = c * apk - sn * aqk;
          a[q * m + k] = sn * apk + c * aqk;
        }
        for (let k = 0; k < m; k++) {
          const vkp = v[k * m + p]!;
          const vkq = v[k * m + q]!;
          v[k * m + p] = c * vkp - sn * vkq;
          v[k * m + q] = sn * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: m }, (_, i) => i).sort((x, y) => a[y * m + y]! - a[x * m + x]!);
  const values = Float64Array.from(order, (i) => a[i * m + i]!);
  const vectors = new Float64Array(m * m);
  order.forEach((from, to) => {
    for (let r = 0; r < m; r++) vectors[r * m + to] = v[r * m + from]!;
  });
  return { values, vectors };
}

interface Sparse {
  n: number;
  t: number;
  start: Uint32Array;
  col: Uint32Array;
  value: Float64Array;
}

/** The tf-idf matrix: weight (1 + ln tf)·idf over kept terms, each row of unit length. */
function tfidf(corpus: Corpus, minDf: number, maxDfShare: number): { x: Sparse; idf: Float32Array; col: Int32Array } {
  const n = corpus.titles.length;
  const t = corpus.terms.length;
  const idf = new Float32Array(t);
  const col = new Int32Array(t).fill(-1);
  let cols = 0;
  for (let i = 0; i < t; i++) {
    idf[i] = Math.log(n / Math.max(1, corpus.df[i]!));
    if (corpus.df[i]! >= minDf && corpus.df[i]! <= maxDfShare * n) col[i] = cols++;
  }
  const start = new Uint32Array(n + 1);
  const colOf: number[] = [];
  const values: number[] = [];
  for (let d = 0; d < n; d++) {
    const from = values.length;
    let norm = 0;
    for (let p = corpus.docStart[d]!; p < corpus.docStart[d + 1]!; p++) {
      const id = corpus.docTerms[p]!;
      if (col[id]! < 0) continue;
      const w = (1 + Math.log(corpus.docTf[p]!)) * idf[id]!;
      colOf.push(col[id]!);
      values.push(w);
      norm += w * w;
    }
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let p = from; p < values.length; p++) values[p]! *= inv;
    start[d + 1] = values.length;
  }
  return { x: { n, t: cols, start, col: Uint32Array.from(colOf), value: Float64Array.from(values) }, idf, col };
}

/**
 * Builds a k-dimensional latent space of the corpus.
 * @example const lsa = buildLsa(corpus, 256); lsa.docVec.length === corpus.titles.length * 256
 */
export function buildLsa(corpus: Corpus, k: number, options: { minDf?: number; maxDfShare?: number; seed?: number } = {}): Lsa {
  const { x, idf, col } = tfidf(corpus, options.minDf ?? 3, options.maxDfShare ?? 0.2);
  const m = k + 10;
  const rnd = random(options.seed ?? 1);
  const omega = new Float64Array(x.t * m);
  for (let i = 0; i < omega.length; i++) omega[i] = rnd();
  let y = times(x, omega, m);
  orthonormalize(y, x.n, m);
  // One power iteration sharpens the spectrum's tail.
  const w = timesT(x, y, m);
  orthonormalize(w, x.t, m);
  y = times(x, w, m);
  orthonormalize(y, x.n, m);
  const q = y;
  // B = Qᵀ X (m×T); Z = Bᵀ = Xᵀ Q; B Bᵀ = ZᵀZ = U S² Uᵀ.
  const z = timesT(x, q, m);
  const { values, vectors } = eigen(gram(z, x.t, m), m);
  const s = Float64Array.from(values.subarray(0, k), (e) => Math.sqrt(Math.max(e, 0)));
  // Term vectors V = Z U S⁻¹ (T×k); document projections Q U S (n×k), normalized.
  const termVec = new Float32Array(x.t * k);
  for (let t = 0; t < x.t; t++) {
    for (let j = 0; j < k; j++) {
      let acc = 0;
      for (let c = 0; c < m; c++) acc += z[t * m + c]! * vectors[c * m + j]!;
      termVec[t * k + j] = s[j]! > 0 ? acc / s[j]! : 0;
    }
  }
  const docVec = new Float32Array(x.n * k);
  for (let d = 0; d < x.n; d++) {
    let norm = 0;
    for (let j = 0; j < k; j++) {
      let acc = 0;
      for (let c = 0; c < m; c++) acc += q[d * m + c]! * vectors[c * m + j]!;
      acc *= s[j]!;
      docVec[d * k + j] = acc;
      norm += acc * acc;
    }
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let j = 0; j < k; j++) docVec[d * k + j]! *= inv;
  }
  return { k, col, termVec, docVec, idf };
}

/** A weighted bag of terms folded into the space (Vᵀq with q's weights × idf), unit length; undefined when no term is in it. */
export function foldQuery(lsa: Lsa, bag: ReadonlyMap<number, number>, dims = lsa.k): Float32Array | undefined {
  const out = new Float32Array(dims);
  let any = false;
  for (const [t, w] of bag) {
    const c = lsa.col[t]!;
    if (c < 0) continue;
    any = true;
    const f = w * lsa.idf[t]!;
    for (let j = 0; j < dims; j++) out[j]! += f * lsa.termVec[c * lsa.k + j]!;
  }
  if (!any) return undefined;
  let norm = 0;
  for (let j = 0; j < dims; j++) norm += out[j]! ** 2;
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let j = 0; j < dims; j++) out[j]! *= inv;
  return out;
}

/** Cosine of every document with a folded query over the first `dims` dimensions (documents renormalized over them). */
export function cosines(lsa: Lsa, query: Float32Array, dims = query.length): Float32Array {
  const n = lsa.docVec.length / lsa.k;
  const out = new Float32Array(n);
  for (let d = 0; d < n; d++) {
    const o = d * lsa.k;
    let dot = 0;
    let norm = 0;
    for (let j = 0; j < dims; j++) {
      const v = lsa.docVec[o + j]!;
      dot += v * query[j]!;
      norm += v * v;
    }
    out[d] = norm > 0 ? dot / Math.sqrt(norm) : 0;
  }
  return out;
}
