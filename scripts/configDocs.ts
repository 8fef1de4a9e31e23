/**
 * `npm run docs:config`: writes the configuration reference (docs/configuration.md) and
 * `.env.example` from the settings' schema (src/configSchema.ts): every key with its
 * description, default and what it must be, grouped as the schema's sections say. Nothing in
 * either file is written by hand, so neither drifts from what `loadConfig` accepts;
 * test/scripts/configDocs.test.ts fails when a committed file differs from what this renders.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { CONFIG_SECTIONS, ConfigSchema } from '../src/configSchema.js';

/** The command that regenerates both files. */
export const REGENERATE = 'npm run docs:config';
/** Where the files go, from the repository's root. */
export const REFERENCE_PATH = 'docs/configuration.md';
export const ENV_EXAMPLE_PATH = '.env.example';
/** Width of the generated text. */
const WIDTH = 100;

/** One setting as the generator reads it off the schema. */
export interface Setting {
  key: string;
  section: keyof typeof CONFIG_SECTIONS;
  description: string;
  /** The default as shown (Markdown), or undefined when unset means off or none. */
  defaultShown: string | undefined;
  /** What a value must be, one sentence each (Markdown). */
  constraints: string[];
}

interface JsonProperty {
  section?: string;
  description?: string;
  defaultText?: string;
  rules?: string[];
  enum?: unknown[];
  type?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
}

/**
 * Every setting of `schema` (the configuration's by default), in its order. Throws, naming the
 * key, when one has no section or no description: a setting nobody can look up is a bug.
 */
export function settings(schema: z.ZodObject = ConfigSchema): Setting[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, JsonProperty> };
  // The defaults are what the schema makes of an empty environment, as loadConfig reads it.
  const defaults = new Map(Object.entries(schema.parse({}) as Record<string, unknown>));
  return Object.entries(json.properties).map(([key, p]) => {
    if (p.section === undefined || !Object.hasOwn(CONFIG_SECTIONS, p.section)) throw new Error(`${key}: give it a section (one of ${Object.keys(CONFIG_SECTIONS).join(', ')}) in src/configSchema.ts`);
    if (!p.description) throw new Error(`${key}: give it a description in src/configSchema.ts`);
    const constraints = [
      ...(p.rules ?? []).map((rule) => sentence(rule)),
      ...(p.enum ? [`One of ${p.enum.map((v) => `\`${String(v)}\``).join(', ')}.`] : []),
      ...(p.type === 'integer' ? [`A whole number from ${p.minimum ?? 0}${p.maximum === undefined ? ' up' : ` to ${p.maximum}`}.`] : []),
      ...(p.minLength !== undefined && p.minLength > 0 ? ['Not empty.'] : []),
    ];
    const value = defaults.get(key);
    const defaultShown = p.defaultText ?? (value === undefined ? undefined : `\`${String(value)}\``);
    return { key, section: p.section as Setting['section'], description: p.description, defaultShown, constraints };
  });
}

/** A rule as the error message says it ("must be …"), as a sentence of the reference. */
function sentence(rule: string): string {
  const text = rule.charAt(0).toUpperCase() + rule.slice(1);
  return text.endsWith('.') ? text : `${text}.`;
}

/** The settings by section, in the sections' order; sections without a setting left out. */
function bySection(all: readonly Setting[]): Array<{ id: keyof typeof CONFIG_SECTIONS; settings: Setting[] }> {
  return (Object.keys(CONFIG_SECTIONS) as Array<keyof typeof CONFIG_SECTIONS>)
    .map((id) => ({ id, settings: all.filter((s) => s.section === id) }))
    .filter((group) => group.settings.length > 0);
}

/** Words of `text` in lines of at most `width` characters (a longer word stands alone). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Links written from the repository's root (`docs/slack.md`, `manifest.yml`) as seen from docs/. */
function fromDocs(markdown: string): string {
  return markdown.replace(/\]\((?!https?:|#)([^)]+)\)/g, (_, target: string) => `](${target.startsWith('docs/') ? target.slice('docs/'.length) : `../${target}`})`);
}

/** Markdown as a comment line reads it: links as their text. */
function plainText(markdown: string): string {
  return markdown.replace(/\[([^\]]+)\]\([^)]+\)/g, '$1');
}

/** GitHub's anchor of a heading that is one code span (`DATA_DIR` → data_dir). */
function anchor(key: string): string {
  return key.toLowerCase();
}

const INTRO =
  'Paper Scout reads its settings from the environment, or from a `.env` file in the directory it runs in (copy `.env.example`, which lists every key). Every key is optional, and an empty value means the default: `npm start` with nothing set runs the terminal on the bundled demo corpus. A bad value stops start-up with a list of every problem and how to fix it.';

/**
 * docs/configuration.md: an index of every setting with its default, then each section's
 * settings with their description, default and constraints.
 * @example writeFileSync('docs/configuration.md', renderReference())
 */
export function renderReference(all: readonly Setting[] = settings()): string {
  const out: string[] = [
    '# Configuration reference',
    '',
    `<!-- Generated from src/configSchema.ts by \`${REGENERATE}\`: edit the schema, then run it. -->`,
    '',
    ...wrap(INTRO, WIDTH),
    '',
    '| setting | default |',
    '| --- | --- |',
    ...bySection(all).flatMap((group) => group.settings.map((s) => `| [\`${s.key}\`](#${anchor(s.key)}) | ${s.defaultShown ?? 'unset'} |`)),
  ];
  for (const { id, settings: group } of bySection(all)) {
    const section = CONFIG_SECTIONS[id];
    out.push('', `## ${section.title}`);
    if (section.intro) out.push('', ...wrap(fromDocs(section.intro), WIDTH));
    for (const s of group) {
      out.push('', `### \`${s.key}\``, '', ...wrap(fromDocs(s.description), WIDTH), '');
      out.push(`- Default: ${s.defaultShown ?? 'unset'}`);
      for (const c of s.constraints) out.push(...wrap(`- ${c}`, WIDTH).map((line, i) => (i === 0 ? line : `  ${line}`)));
    }
  }
  return `${out.join('\n')}\n`;
}

/**
 * `.env.example`: every key, empty (the default), under its section, with its description and
 * default as comments.
 * @example writeFileSync('.env.example', renderEnvExample())
 */
export function renderEnvExample(all: readonly Setting[] = settings()): string {
  const comment = (text: string) => wrap(plainText(text), WIDTH - 2).map((line) => `# ${line}`);
  const out: string[] = [
    ...comment(
      `Paper Scout configuration: copy to .env (or set these in the environment). Every key is optional, and an empty value means the default: \`npm start\` with nothing set runs the terminal on the bundled demo corpus. Generated from src/configSchema.ts by \`${REGENERATE}\`; every setting with what it must be: ${REFERENCE_PATH}.`,
    ),
  ];
  for (const { id, settings: group } of bySection(all)) {
    const section = CONFIG_SECTIONS[id];
    const rule = `# ── ${section.title} `;
    out.push('', rule.padEnd(WIDTH, '─'));
    if (section.intro) out.push(...comment(section.intro));
    for (const s of group) {
      out.push('', ...comment(s.description));
      if (s.defaultShown !== undefined) out.push(...comment(`Default: ${s.defaultShown}.`));
      out.push(`${s.key}=`);
    }
  }
  return `${out.join('\n')}\n`;
}

const root = fileURLToPath(new URL('..', import.meta.url));
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const all = settings();
  writeFileSync(resolve(root, REFERENCE_PATH), renderReference(all));
  writeFileSync(resolve(root, ENV_EXAMPLE_PATH), renderEnvExample(all));
  process.stdout.write(`Wrote ${REFERENCE_PATH} and ${ENV_EXAMPLE_PATH} (${all.length} settings).\n`);
}
