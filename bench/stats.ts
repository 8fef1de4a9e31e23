/** Small statistics helpers for the benchmarks. */

/**
 * The p-th percentile (0..1) by nearest rank.
 * @example percentile([1, 2, 3, 4], 0.5) // 2
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

export function fmtMs(ms: number): string {
  return ms >= 100 ? `${Math.round(ms).toLocaleString('en-US')} ms` : `${ms.toFixed(2)} ms`;
}

export function fmtMb(bytes: number): string {
  return `${Math.round(bytes / 1048576)} MB`;
}
