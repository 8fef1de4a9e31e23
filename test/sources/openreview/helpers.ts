/** The OpenReview fixtures of test/fixtures/openreview. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function openreviewFixture(name: string): string {
  return readFileSync(fileURLToPath(new URL(`../../fixtures/openreview/${name}`, import.meta.url)), 'utf8');
}
