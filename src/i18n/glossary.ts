/**
 * The glossary of Chinese machine-learning terms (`seeds/glossary.zh-CN.json`): each term with
 * the English it is searched as, and words that carry no search meaning ("的", "基于"). Data, not
 * code: the test in test/i18n/glossary.test.ts checks that every term finds papers.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { seedPath } from '../paths.js';

export const GLOSSARY_FILE = 'glossary.zh-CN.json';

const HAN_TERM = z.string().regex(/^\p{Script=Han}[\p{Script=Han}\p{L}\p{N}]{0,19}$/u, 'must be Chinese (starting with a Chinese character), at most 20 characters');

export const GlossarySchema = z
  .object({
    $comment: z.union([z.string(), z.array(z.string())]).optional(),
    version: z.literal(1),
    /** Words dropped from a query: particles and filler ("的", "基于", "方法"). */
    ignore: z.array(HAN_TERM).max(500),
    /** Chinese term → the English it is searched as (lower case, words of the papers' language). */
    terms: z.record(HAN_TERM, z.string().regex(/^[a-z0-9][a-z0-9 .'-]{0,79}$/, 'must be lower-case English words')),
  })
  .strict();
export type Glossary = z.infer<typeof GlossarySchema>;

/**
 * Reads and validates the glossary.
 * @example loadGlossary().terms['扩散模型'] // 'diffusion model'
 */
export function loadGlossary(path: string = seedPath(GLOSSARY_FILE)): Glossary {
  const parsed = GlossarySchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) {
    throw new Error(`The glossary ${path} is invalid:\n${parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  }
  const clash = parsed.data.ignore.filter((w) => w in parsed.data.terms);
  if (clash.length > 0) throw new Error(`The glossary ${path} both ignores and translates: ${clash.join(', ')}`);
  return parsed.data;
}
