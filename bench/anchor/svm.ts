/**
 * A linear SVM as arxiv-sanity-lite trains one per query (serve.py's `svm_rank`):
 * scikit-learn's `LinearSVC(class_weight='balanced', C=0.01, tol=1e-6, max_iter=10000)`, that
 * is liblinear's L2-regularized squared-hinge-loss SVM solved in the dual by coordinate descent
 * (Hsieh et al., ICML 2008; liblinear's `solve_l2r_l1l2_svc`, as scikit-learn's LinearSVC ran
 * it with `dual=True`), with shrinking. The intercept is liblinear's: a constant feature 1
 * (`intercept_scaling=1`), regularized with the rest. Balanced class weights give each class
 * C · n / (2 · its size). It minimizes
 *   ½‖w‖² + Σᵢ Cᵢ max(0, 1 − yᵢ (w·xᵢ + b))²
 * and stops when the projected gradient's spread is at most `tol` or after `maxIter` passes.
 * The coordinate order is a seeded shuffle each pass, so a run is repeatable.
 */
import { rng } from '../scale/generate.js';
import type { SparseRows } from './tfidf.js';

export interface SvmOptions {
  C: number;
  tol: number;
  maxIter: number;
  /** Seed of the coordinate order. */
  seed: number;
}

/** arxiv-sanity-lite's settings (serve.py). */
export const ARXIV_SANITY_SVM: SvmOptions = { C: 0.01, tol: 1e-6, maxIter: 10_000, seed: 1 };

export interface LinearModel {
  /** One weight per column of the rows. */
  w: Float64Array;
  bias: number;
  /** Passes made, and whether they met `tol` before `maxIter`. */
  iterations: number;
  converged: boolean;
}

/**
 * The SVM separating the rows marked in `positive` from all the others.
 * @example const model = trainLinearSvc(x, positive, ARXIV_SANITY_SVM); decision(x, model, row)
 */
export function trainLinearSvc(x: SparseRows, positive: Uint8Array, options: SvmOptions): LinearModel {
  const n = x.rows;
  const { indptr, indices, values } = x;
  let positives = 0;
  for (let i = 0; i < n; i++) positives += positive[i]!;
  if (positives === 0 || positives === n) throw new Error(`an SVM needs both classes: ${positives} positive rows of ${n}`);
  // Balanced class weights, and the squared hinge loss's diagonal 1 / (2 Cᵢ).
  const diagPositive = 1 / (2 * options.C * (n / (2 * positives)));
  const diagNegative = 1 / (2 * options.C * (n / (2 * (n - positives))));

  const w = new Float64Array(x.vocabulary.length);
  let bias = 0;
  const alpha = new Float64Array(n);
  const qd = new Float64Array(n);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let squared = 1; // the intercept's feature
    for (let k = indptr[i]!; k < indptr[i + 1]!; k++) squared += values[k]! * values[k]!;
    qd[i] = squared + (positive[i] ? diagPositive : diagNegative);
    order[i] = i;
  }

  const random = rng(options.seed);
  let active = n;
  // liblinear's shrinking keeps PGmax and PGmin of the last pass; with the squared hinge loss
  // αᵢ has no upper bound, so only PGmax (rows at αᵢ = 0) ever shrinks one.
  let pgMaxOld = Infinity;
  let iterations = 0;
  let converged = false;
  while (iterations < options.maxIter) {
    let pgMax = -Infinity;
    let pgMin = Infinity;
    for (let s = 0; s < active; s++) {
      const j = s + Math.floor(random() * (active - s));
      const swap = order[s]!;
      order[s] = order[j]!;
      order[j] = swap;
    }
    for (let s = 0; s < active; s++) {
      const i = order[s]!;
      const y = positive[i] ? 1 : -1;
      let margin = bias;
      for (let k = indptr[i]!; k < indptr[i + 1]!; k++) margin += w[indices[k]!]! * values[k]!;
      const g = y * margin - 1 + alpha[i]! * (positive[i] ? diagPositive : diagNegative);
      let pg = 0;
      if (alpha[i] === 0) {
        if (g > pgMaxOld) {
          // Bound and likely to stay so: out of the active set until the end checks all again.
          active--;
          order[s] = order[active]!;
          order[active] = i;
          s--;
          continue;
        }
        if (g < 0) pg = g;
      } else {
        pg = g;
      }
      if (pg > pgMax) pgMax = pg;
      if (pg < pgMin) pgMin = pg;
      if (Math.abs(pg) > 1e-12) {
        const old = alpha[i]!;
        alpha[i] = Math.max(old - g / qd[i]!, 0);
        const step = (alpha[i]! - old) * y;
        for (let k = indptr[i]!; k < indptr[i + 1]!; k++) w[indices[k]!]! += step * values[k]!;
        bias += step;
      }
    }
    iterations++;
    if (pgMax - pgMin <= options.tol) {
      if (active === n) {
        converged = true;
        break;
      }
      // Met on the active set: check every row again before stopping.
      active = n;
      pgMaxOld = Infinity;
      continue;
    }
    pgMaxOld = pgMax <= 0 ? Infinity : pgMax;
  }
  return { w, bias, iterations, converged };
}

/** w·x + b for row `i`: the SVM's decision function, by which arxiv-sanity-lite ranks. */
export function decision(x: SparseRows, model: LinearModel, i: number): number {
  let sum = model.bias;
  for (let k = x.indptr[i]!; k < x.indptr[i + 1]!; k++) sum += model.w[x.indices[k]!]! * x.values[k]!;
  return sum;
}
