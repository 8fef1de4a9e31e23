/**
 * The topic taxonomy: "Area · Subarea" topics with stable ids, loaded from `seeds/topics.json`.
 * The file format is documented in the file's own `$comment`; this module validates it with zod
 * and cross-checks what zod cannot see (unique ids, aliases that two topics claim, fallbacks).
 * Resolution of user input lives in `resolve.ts`, classification of papers in `classify.ts`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Localized } from '../i18n/index.js';
import { tokenize } from '../text.js';

/**
 * Where the shipped taxonomy lives: `seeds/topics.json` in the nearest directory above this
 * module that has one (`src/topics/` when run from source, `dist/src/topics/` when built).
 * @example loadTaxonomy(defaultTaxonomyPath())
 */
export function defaultTaxonomyPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'seeds', 'topics.json');
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return fileURLToPath(new URL('../../seeds/topics.json', import.meta.url));
}

/** The shipped taxonomy's path, resolved once when this module loads (see {@link defaultTaxonomyPath}). */
export const DEFAULT_TAXONOMY_PATH = defaultTaxonomyPath();

/** Separator between area and name in a topic's display label. */
export const LABEL_SEPARATOR = ' · ';

/** Longest display label; Discord caps choice names at 100 characters, Slack option text at 75 in some places. */
export const MAX_LABEL_LENGTH = 100;

const phrase = z
  .string()
  .max(200)
  .refine((s) => tokenize(s).length > 0, 'has no words (letters or digits)');

const tiers = z
  .object({
    /** Alone enough to assign the topic when found in a title, keywords or as a label. */
    strong: z.array(phrase).max(500).default([]),
    /** Supporting evidence only. */
    weak: z.array(phrase).max(500).default([]),
  })
  .strict();

const labelTiers = z
  .object({
    strong: z.array(z.string().trim().min(1).max(300)).max(200).default([]),
    weak: z.array(z.string().trim().min(1).max(300)).max(200).default([]),
  })
  .strict();

export const DefinitionSchema = z
  .object({
    /** Source labels: a venue's primary area or an arXiv category (`cs.CL`, `q-bio.*`). */
    labels: labelTiers.default({ strong: [], weak: [] }),
    /** Phrases looked for in the title, abstract and keywords. */
    phrases: tiers.default({ strong: [], weak: [] }),
    /** Phrases looked for in the keywords only. */
    keywords: tiers.default({ strong: [], weak: [] }),
  })
  .strict();
export type Definition = z.infer<typeof DefinitionSchema>;

/** Names in other languages, by locale (`{ "zh-CN": "大语言模型" }`); English is `name`. */
const NamesSchema = z.record(z.string().regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, 'must be keyed by a locale such as zh-CN'), z.string().trim().min(1).max(60)).default({});

const TopicSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*\/[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must look like "area-slug/topic-slug"'),
    area: z.string().trim().min(1).max(60),
    name: z.string().trim().min(1).max(90),
    names: NamesSchema,
    aliases: z.array(z.string().trim().min(1).max(100)).max(50).default([]),
    description: z.string().trim().min(1).max(200),
    definition: DefinitionSchema,
  })
  .strict();

const AreaSchema = z
  .object({
    name: z.string().trim().min(1).max(60),
    names: NamesSchema,
    aliases: z.array(z.string().trim().min(1).max(100)).max(50).default([]),
    description: z.string().trim().max(200).default(''),
    /** Topic id assigned when the area's own evidence passes but none of its topics does. */
    fallback: z.string().optional(),
    definition: DefinitionSchema.default({
      labels: { strong: [], weak: [] },
      phrases: { strong: [], weak: [] },
      keywords: { strong: [], weak: [] },
    }),
  })
  .strict();

export const TaxonomyFileSchema = z
  .object({
    $comment: z.union([z.string(), z.array(z.string())]).optional(),
    version: z.literal(1),
    /** Phrases matched and discarded so they cannot feed a shorter phrase. */
    ignore: z.array(phrase).max(1000).default([]),
    areas: z.array(AreaSchema).min(1).max(50),
    topics: z.array(TopicSchema).min(1).max(500),
  })
  .strict();
export type TaxonomyFile = z.infer<typeof TaxonomyFileSchema>;

/** A topic as the rest of Paper Scout sees it. */
export interface Topic {
  /** Stable slug, e.g. `deep-learning/large-language-models`; subscriptions store it. */
  readonly id: string;
  readonly area: string;
  readonly name: string;
  /** `${area} · ${name}`, at most {@link MAX_LABEL_LENGTH} characters. */
  readonly label: string;
  /** The name in every language the file has (`en` is `name`). */
  readonly names: Localized;
  /** The label in every language the file has (`en` is `label`). */
  readonly labels: Localized;
  readonly aliases: readonly string[];
  readonly description: string;
  readonly definition: Definition;
  /** Position in the file; ties in ranking break on it. */
  readonly index: number;
  /** True when this topic is its area's fallback ("Everything Else"). */
  readonly isFallback: boolean;
}

/** An area with its topics in file order (the order in which they are offered). */
export interface Area {
  readonly name: string;
  /** The name in every language the file has (`en` is `name`). */
  readonly names: Localized;
  readonly aliases: readonly string[];
  readonly description: string;
  readonly definition: Definition;
  readonly fallback: Topic | undefined;
  readonly topics: readonly Topic[];
}

export interface Taxonomy {
  readonly topics: readonly Topic[];
  /** Areas in file order, each with its topics: the grouped listing. */
  readonly areas: readonly Area[];
  /** Phrases the classifier discards. */
  readonly ignore: readonly string[];
  /** Where it was loaded from, for messages. */
  readonly source: string;
  byId(id: string): Topic | undefined;
  /** A topic's label in a language (a catalog locale such as `zh-CN`), else in English. */
  label(topic: Topic, locale?: string): string;
  /** An area's name in a language, else in English. */
  areaName(area: Area, locale?: string): string;
}

/** A taxonomy file that cannot be used; `problems` lists every problem found, one line each. */
export class TaxonomyError extends Error {
  override readonly name = 'TaxonomyError';
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`Topic taxonomy ${source} is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * Reads, validates and indexes a taxonomy file.
 * @throws TaxonomyError naming the topic and field of every problem.
 * @example
 * const taxonomy = loadTaxonomy();
 * taxonomy.label(taxonomy.byId('deep-learning/large-language-models')!) // 'Deep Learning · Large Language Models'
 */
export function loadTaxonomy(path: string = DEFAULT_TAXONOMY_PATH): Taxonomy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new TaxonomyError(path, [`cannot read the file: ${(err as Error).message}`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new TaxonomyError(path, [`not valid JSON: ${(err as Error).message}`]);
  }
  return parseTaxonomy(json, path);
}

/**
 * Validates already-parsed taxonomy JSON (see {@link loadTaxonomy}).
 * @example parseTaxonomy(JSON.parse(text), 'inline').topics.length
 */
export function parseTaxonomy(json: unknown, source = 'taxonomy'): Taxonomy {
  const parsed = TaxonomyFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new TaxonomyError(
      source,
      parsed.error.issues.map((issue) => `${describePath(json, issue.path)}: ${issue.message}`),
    );
  }
  const problems = crossCheck(parsed.data);
  if (problems.length > 0) throw new TaxonomyError(source, problems);
  return build(parsed.data, source);
}

/**
 * The display label of a topic.
 * @example topicLabel({ area: 'Theory', name: 'Learning Theory' }) // 'Theory · Learning Theory'
 */
export function topicLabel(topic: Pick<Topic, 'area' | 'name'>): string {
  return `${topic.area}${LABEL_SEPARATOR}${topic.name}`;
}

/**
 * The slug of an area, which prefixes its topics' ids.
 * @example areaSlug('Deep Learning') // 'deep-learning'
 */
export function areaSlug(area: string): string {
  return tokenize(area).join('-');
}

/**
 * The comparison form of a name, alias or user input: folded words without English function
 * words, each with a plural `s` taken off, so "LLMs!", "llm" and " LLM " agree.
 * @example matchKey('Deep Learning · Large Language Models') // 'deep learning large language model'
 */
export function matchKey(text: string): string {
  const words = tokenize(text);
  const kept = words.filter((w) => !KEY_STOPWORDS.has(w));
  return (kept.length > 0 ? kept : words).map(singular).join(' ');
}

/** Words left out of comparison keys. */
export const KEY_STOPWORDS: ReadonlySet<string> = new Set(['a', 'an', 'and', 'the', 'of', 'for', 'in', 'on', 'to', 'with', 'or']);

/**
 * A crude singular: enough to make the same word in two spellings agree, not a stemmer.
 * @example singular('processes') // 'process'
 */
export function singular(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:sses|xes|ches|shes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

function describePath(json: unknown, path: readonly PropertyKey[]): string {
  const head = path[0];
  const index = path[1];
  let where = path.length === 0 ? '(file)' : String(head);
  let rest = path.slice(1);
  if ((head === 'topics' || head === 'areas') && typeof index === 'number') {
    const entry = (json as Record<string, unknown[]>)[head]?.[index] as Record<string, unknown> | undefined;
    const key = head === 'topics' ? entry?.id : entry?.name;
    where =
      head === 'topics'
        ? `topic ${typeof key === 'string' ? JSON.stringify(key) : `#${index}`} (topics[${index}])`
        : `area ${typeof key === 'string' ? JSON.stringify(key) : `#${index}`} (areas[${index}])`;
    rest = path.slice(2);
  }
  return rest.length > 0 ? `${where} ${rest.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '')}` : where;
}

function crossCheck(file: TaxonomyFile): string[] {
  const problems: string[] = [];
  const areaNames = new Set(file.areas.map((a) => a.name));
  const seenArea = new Set<string>();
  for (const area of file.areas) {
    if (seenArea.has(area.name)) problems.push(`area ${JSON.stringify(area.name)}: declared twice`);
    seenArea.add(area.name);
  }

  const ids = new Map<string, number>();
  const labels = new Map<string, string>();
  file.topics.forEach((topic, i) => {
    const where = `topic ${JSON.stringify(topic.id)} (topics[${i}])`;
    if (ids.has(topic.id)) problems.push(`${where} id: duplicate of topics[${ids.get(topic.id)}]`);
    ids.set(topic.id, i);
    if (!areaNames.has(topic.area)) {
      problems.push(`${where} area: ${JSON.stringify(topic.area)} is not declared in "areas" (add it there or fix the spelling)`);
    }
    const prefix = `${areaSlug(topic.area)}/`;
    if (!topic.id.startsWith(prefix)) problems.push(`${where} id: must start with "${prefix}" (the slug of its area)`);
    const area = file.areas.find((a) => a.name === topic.area);
    for (const locale of Object.keys(topic.names)) {
      if (!area?.names[locale]) problems.push(`${where} names.${locale}: its area ${JSON.stringify(topic.area)} has no ${locale} name`);
    }
    const label = topicLabel(topic);
    if (label.length > MAX_LABEL_LENGTH) {
      problems.push(`${where} name: label "${label}" is ${label.length} characters; the limit is ${MAX_LABEL_LENGTH}`);
    }
    const labelKey = matchKey(label);
    const clash = labels.get(labelKey);
    if (clash) problems.push(`${where} name: label "${label}" reads the same as topic "${clash}"`);
    labels.set(labelKey, topic.id);
    problems.push(...duplicatePhrases(where, topic.definition));
  });

  file.areas.forEach((area, i) => {
    const where = `area ${JSON.stringify(area.name)} (areas[${i}])`;
    if (area.fallback !== undefined) {
      const j = ids.get(area.fallback);
      if (j === undefined) problems.push(`${where} fallback: no topic has id ${JSON.stringify(area.fallback)}`);
      else if (file.topics[j]!.area !== area.name) {
        problems.push(`${where} fallback: topic ${JSON.stringify(area.fallback)} belongs to area ${JSON.stringify(file.topics[j]!.area)}`);
      }
    }
    problems.push(...duplicatePhrases(where, area.definition));
  });

  problems.push(...aliasClashes(file));
  return problems;
}

function duplicatePhrases(where: string, definition: Definition): string[] {
  const problems: string[] = [];
  // A phrase appears once in `phrases`. A `keywords` entry may repeat a weak phrase to make it
  // strong when an author picks it as a keyword ("graph"); any other repeat is a mistake.
  const seen = new Map<string, { at: string; strong: boolean }>();
  for (const field of ['phrases', 'keywords'] as const) {
    for (const tier of ['strong', 'weak'] as const) {
      definition[field][tier].forEach((p, k) => {
        const key = tokenize(p).join(' ');
        const before = seen.get(key);
        const promotes = field === 'keywords' && tier === 'strong' && before !== undefined && !before.strong && before.at.startsWith('definition.phrases');
        if (before && !promotes) problems.push(`${where} definition.${field}.${tier}[${k}]: "${p}" repeats ${before.at}`);
        else seen.set(key, { at: `definition.${field}.${tier}[${k}]`, strong: tier === 'strong' });
      });
    }
  }
  const seenLabels = new Map<string, string>();
  for (const tier of ['strong', 'weak'] as const) {
    definition.labels[tier].forEach((l, k) => {
      const key = normalizeLabel(l);
      const before = seenLabels.get(key);
      if (before) problems.push(`${where} definition.labels.${tier}[${k}]: "${l}" repeats ${before}`);
      else seenLabels.set(key, `definition.labels.${tier}[${k}]`);
    });
  }
  return problems;
}

/**
 * An alias must point at one topic: it may not read like another topic's id, label or alias.
 * Names may repeat across areas ("Everything Else"); resolution then offers the choices.
 */
function aliasClashes(file: TaxonomyFile): string[] {
  const problems: string[] = [];
  const owner = new Map<string, string>();
  const claim = (key: string, id: string, what: string): void => {
    if (key === '') return;
    const other = owner.get(key);
    if (other !== undefined && other !== id) {
      problems.push(`topic ${JSON.stringify(id)} ${what}: also names topic ${JSON.stringify(other)}; an alias must name one topic`);
    } else owner.set(key, id);
  };
  const areaNames = new Map(file.areas.map((a) => [a.name, a.names]));
  for (const t of file.topics) {
    claim(matchKey(t.id), t.id, 'id');
    claim(matchKey(topicLabel(t)), t.id, 'label');
    for (const [locale, name] of Object.entries(t.names)) {
      const areaName = areaNames.get(t.area)?.[locale];
      if (areaName) claim(matchKey(topicLabel({ area: areaName, name })), t.id, `names.${locale} label`);
    }
  }
  file.topics.forEach((t, i) => {
    t.aliases.forEach((a, k) => claim(matchKey(a), t.id, `aliases[${k}] "${a}" (topics[${i}])`));
  });
  return problems;
}

/**
 * The comparison form of a source label: folded, single-spaced, a trailing roman numeral
 * ("Computer Vision II") dropped.
 * @example normalizeLabel('Computer Vision  II') // 'computer vision'
 */
export function normalizeLabel(label: string): string {
  return label
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/ (?:i|ii|iii|iv|v|vi)$/, '');
}

function build(file: TaxonomyFile, source: string): Taxonomy {
  const fallbackIds = new Set(file.areas.flatMap((a) => (a.fallback ? [a.fallback] : [])));
  const areaNames = new Map<string, Localized>(file.areas.map((a) => [a.name, { ...a.names, en: a.name }]));
  const topics: Topic[] = file.topics.map((t, index) =>
    Object.freeze({
      id: t.id,
      area: t.area,
      name: t.name,
      label: topicLabel(t),
      names: Object.freeze({ ...t.names, en: t.name }),
      labels: Object.freeze({
        ...Object.fromEntries(Object.entries(t.names).map(([locale, name]) => [locale, topicLabel({ area: areaNames.get(t.area)?.[locale] ?? t.area, name })])),
        en: topicLabel(t),
      }),
      aliases: Object.freeze([...t.aliases]),
      description: t.description,
      definition: t.definition,
      index,
      isFallback: fallbackIds.has(t.id),
    }),
  );
  const byIdMap = new Map(topics.map((t) => [t.id, t]));
  const areas: Area[] = file.areas.map((a) =>
    Object.freeze({
      name: a.name,
      names: Object.freeze({ ...a.names, en: a.name }),
      aliases: Object.freeze([...a.aliases]),
      description: a.description,
      definition: a.definition,
      fallback: a.fallback === undefined ? undefined : byIdMap.get(a.fallback),
      topics: Object.freeze(topics.filter((t) => t.area === a.name)),
    }),
  );
  return Object.freeze({
    topics: Object.freeze(topics),
    areas: Object.freeze(areas),
    ignore: Object.freeze([...file.ignore]),
    source,
    byId: (id: string) => byIdMap.get(id),
    label: (topic: Topic, locale?: string) => (locale && topic.labels[locale]) || topic.label,
    areaName: (area: Area, locale?: string) => (locale && area.names[locale]) || area.name,
  });
}
