/**
 * The configuration reference (docs/configuration.md) and `.env.example` are generated from the
 * settings' schema (src/configSchema.ts) by `npm run docs:config`: the committed files must be
 * exactly what it writes, so that a setting added, changed or described anew reaches both.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigSchema, loadConfig } from '../../src/config.js';
import { ENV_EXAMPLE_PATH, REFERENCE_PATH, REGENERATE, renderEnvExample, renderReference, settings } from '../../scripts/configDocs.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(resolve(ROOT, path), 'utf8');

describe('the generated configuration documents', () => {
  it(`${REFERENCE_PATH} is what ${REGENERATE} writes`, () => {
    expect(read(REFERENCE_PATH) === renderReference(), `${REFERENCE_PATH} differs from the schema in src/configSchema.ts: run ${REGENERATE} and commit the result`).toBe(true);
  });

  it(`${ENV_EXAMPLE_PATH} is what ${REGENERATE} writes`, () => {
    expect(read(ENV_EXAMPLE_PATH) === renderEnvExample(), `${ENV_EXAMPLE_PATH} differs from the schema in src/configSchema.ts: run ${REGENERATE} and commit the result`).toBe(true);
  });

  it('describes every setting, with the default loadConfig applies', () => {
    const all = settings();
    expect(all.map((s) => s.key)).toEqual(Object.keys(ConfigSchema.shape));
    const reference = renderReference(all);
    for (const s of all) {
      expect(s.description.length, s.key).toBeGreaterThan(10);
      expect(reference, s.key).toContain(`### \`${s.key}\``);
    }
    const byKey = new Map(all.map((s) => [s.key, s]));
    const config = loadConfig({});
    expect(byKey.get('PORT')!.defaultShown).toBe(`\`${config.port}\``);
    expect(byKey.get('ARXIV_SYNC_TIME')!.defaultShown).toBe(`\`${config.arxiv.syncTime}\``);
    expect(byKey.get('ARXIV_CATEGORIES')!.defaultShown).toBe(`\`${config.arxiv.categories.join(',')}\``);
    expect(byKey.get('OPENALEX_API_URL')!.defaultShown).toBe(`\`${config.lookup.openalexUrl}\``);
    // What a value must be is the message a wrong one gets.
    expect(byKey.get('ARXIV_SYNC_TIME')!.constraints).toEqual(['Must be a time of day HH:MM (UTC), e.g. 02:30.']);
    expect(() => loadConfig({ ARXIV_SYNC_TIME: '25:00' })).toThrow('ARXIV_SYNC_TIME: must be a time of day HH:MM (UTC), e.g. 02:30');
    expect(byKey.get('PORT')!.constraints).toEqual(['A whole number from 0 to 65535.']);
    expect(byKey.get('WEB')!.constraints).toEqual(['One of `on`, `off`.']);
  });

  it('refuses a setting without a section or a description', () => {
    expect(() => settings(z.object({ A: z.string().optional().meta({ section: 'storage' }) }))).toThrow('A: give it a description');
    expect(() => settings(z.object({ B: z.string().optional().meta({ description: 'Something.' }) }))).toThrow('B: give it a section');
    expect(() => settings(z.object({ C: z.string().optional().meta({ section: 'elsewhere', description: 'Something.' }) }))).toThrow('C: give it a section');
  });
});
