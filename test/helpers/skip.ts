/**
 * Tests that cannot run everywhere skip saying why: one line on stderr with the reason (and
 * the fix, where there is one). What CI installs for them (.ci/run: PostgreSQL, Chromium,
 * bibtex and biber, the compiler the mmap addon needs) it also requires: with
 * `REQUIRE_TEST_TOOLS=1`, as .ci/run sets it, a missing one fails the run instead of skipping,
 * so a claim a skipped test backs cannot go unchecked in CI unnoticed.
 */

/** Whether a skip of something CI installs fails the run instead (`REQUIRE_TEST_TOOLS=1`). */
export const toolsRequired = process.env.REQUIRE_TEST_TOOLS === '1';

/**
 * Whether `what` is skipped here (`reason` given); says why on stderr. `required`: CI installs
 * what it needs, so under {@link toolsRequired} a skip throws, failing the file.
 * @example describe.skipIf(skipping('BibTeX tool tests', missingTools(), { required: true }))('…', () => …)
 */
export function skipping(what: string, reason: string | undefined, options: { required?: boolean } = {}): boolean {
  if (reason === undefined) return false;
  if (options.required && toolsRequired) throw new Error(`${what} cannot run: ${reason} (REQUIRE_TEST_TOOLS=1: CI installs what they need, so they may not skip)`);
  process.stderr.write(`${what} skipped: ${reason}\n`);
  return true;
}
