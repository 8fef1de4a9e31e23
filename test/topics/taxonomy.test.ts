import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MAX_LABEL_LENGTH,
  TaxonomyError,
  loadTaxonomy,
  matchKey,
  normalizeLabel,
  parseTaxonomy,
  singular,
  topicLabel,
} from '../../src/topics/taxonomy.js';
import { minimalFile } from './fixtures.js';

function problemsOf(file: unknown): string[] {
  try {
    parseTaxonomy(file, 'test.json');
  } catch (err) {
    expect(err).toBeInstanceOf(TaxonomyError);
    return [...(err as TaxonomyError).problems];
  }
  throw new Error('expected the taxonomy to be rejected');
}

describe('the shipped taxonomy (seeds/topics.json)', () => {
  const taxonomy = loadTaxonomy();

  it('has a few dozen topics with unique ids and labels of at most 100 characters', () => {
    expect(taxonomy.topics.length).toBeGreaterThanOrEqual(40);
    expect(taxonomy.topics.length).toBeLessThanOrEqual(70);
    expect(new Set(taxonomy.topics.map((t) => t.id)).size).toBe(taxonomy.topics.length);
    expect(new Set(taxonomy.topics.map((t) => t.label)).size).toBe(taxonomy.topics.length);
    for (const t of taxonomy.topics) expect(t.label.length).toBeLessThanOrEqual(MAX_LABEL_LENGTH);
  });

  it('covers the ICML-style subject areas it grew from', () => {
    const labels = new Set(taxonomy.topics.map((t) => t.label));
    for (const label of [
      'Deep Learning · Large Language Models',
      'Deep Learning · Generative Models and Autoencoders',
      'Deep Learning · Algorithms',
      'General Machine Learning · Causality',
      'General Machine Learning · Kernel Methods',
      'General Machine Learning · Everything Else',
      'Theory · Learning Theory',
      'Theory · Everything Else',
      'Social Aspects · Safety',
      'Optimization · Discrete and Combinatorial Optimization',
      'Probabilistic Methods · Graphical Models',
    ]) {
      expect(labels, label).toContain(label);
    }
  });

  it('looks topics up by id and labels them "Area · Name"', () => {
    const llm = taxonomy.byId('deep-learning/large-language-models');
    expect(llm?.name).toBe('Large Language Models');
    expect(taxonomy.label(llm!)).toBe('Deep Learning · Large Language Models');
    expect(taxonomy.byId('no/such-topic')).toBeUndefined();
  });

  it('groups every topic under exactly one area, in file order', () => {
    const grouped = taxonomy.areas.flatMap((a) => a.topics);
    expect(grouped.map((t) => t.id).sort()).toEqual(taxonomy.topics.map((t) => t.id).sort());
    for (const area of taxonomy.areas) {
      expect(area.topics.length, area.name).toBeGreaterThan(0);
      const idx = area.topics.map((t) => t.index);
      expect(idx).toEqual([...idx].sort((a, b) => a - b));
      if (area.fallback) expect(area.fallback.area).toBe(area.name);
    }
  });

  it('gives every topic some strong evidence or makes it a fallback', () => {
    for (const t of taxonomy.topics) {
      const d = t.definition;
      const strong = d.phrases.strong.length + d.keywords.strong.length + d.labels.strong.length;
      expect(strong > 0 || t.isFallback, t.id).toBe(true);
    }
  });
});

describe('taxonomy validation', () => {
  it('accepts the minimal fixture', () => {
    const t = parseTaxonomy(minimalFile(), 'fixture');
    expect(t.topics.map((x) => x.id)).toEqual([
      'alpha-area/graph-nets',
      'alpha-area/language-models',
      'alpha-area/everything-else',
      'beta-area/vision-language',
    ]);
    expect(t.areas[0]!.fallback?.id).toBe('alpha-area/everything-else');
    expect(t.byId('alpha-area/everything-else')?.isFallback).toBe(true);
  });

  it('names the topic and the field of a bad id', () => {
    const file = minimalFile();
    (file.topics as Array<Record<string, unknown>>)[1]!.id = 'Alpha Area/LLM';
    const problems = problemsOf(file);
    expect(problems.join('\n')).toMatch(/topic "Alpha Area\/LLM" \(topics\[1\]\) id: must look like "area-slug\/topic-slug"/);
  });

  it('names the topic and the path of a phrase without words', () => {
    const file = minimalFile();
    const topic = (file.topics as Array<Record<string, any>>)[0]!;
    topic.definition.phrases.strong = ['graph neural network', '···'];
    expect(problemsOf(file).join('\n')).toContain(
      'topic "alpha-area/graph-nets" (topics[0]) definition.phrases.strong[1]: has no words (letters or digits)',
    );
  });

  it('names the topic of a missing description and of unknown fields', () => {
    const file = minimalFile();
    const topic = (file.topics as Array<Record<string, any>>)[2]!;
    delete topic.description;
    topic.definiton = {};
    const text = problemsOf(file).join('\n');
    expect(text).toContain('topic "alpha-area/everything-else" (topics[2]) description');
    expect(text).toMatch(/topic "alpha-area\/everything-else" \(topics\[2\]\).*definiton/);
  });

  it('lists every problem at once: unknown area, wrong id prefix, duplicate id, duplicate phrase', () => {
    const file = minimalFile();
    const topics = file.topics as Array<Record<string, any>>;
    topics[0]!.area = 'Alpha Aera';
    topics[2]!.id = 'alpha-area/graph-nets';
    topics[3]!.definition.phrases.strong.push('Vision Language Model');
    const text = problemsOf(file).join('\n');
    expect(text).toContain('topic "alpha-area/graph-nets" (topics[0]) area: "Alpha Aera" is not declared in "areas"');
    expect(text).toContain('topic "alpha-area/graph-nets" (topics[0]) id: must start with "alpha-aera/"');
    expect(text).toContain('topic "alpha-area/graph-nets" (topics[2]) id: duplicate of topics[0]');
    expect(text).toContain('topic "beta-area/vision-language" (topics[3]) definition.phrases.strong[2]: "Vision Language Model" repeats definition.phrases.strong[0]');
  });

  it('lets a keyword entry promote a weak phrase but not repeat a strong one', () => {
    const ok = minimalFile(); // graph-nets has weak phrase "graph" and strong keyword "graph"
    expect(() => parseTaxonomy(ok)).not.toThrow();
    const bad = minimalFile();
    (bad.topics as Array<Record<string, any>>)[0]!.definition.keywords.strong = ['GNN'];
    expect(problemsOf(bad).join('\n')).toContain('definition.keywords.strong[0]: "GNN" repeats definition.phrases.strong[1]');
  });

  it('rejects an alias that names two topics', () => {
    const file = minimalFile();
    (file.topics as Array<Record<string, any>>)[3]!.aliases = ['LLMs'];
    expect(problemsOf(file).join('\n')).toContain(
      'topic "beta-area/vision-language" aliases[0] "LLMs" (topics[3]): also names topic "alpha-area/language-models"',
    );
  });

  it('rejects a fallback that is missing or belongs to another area', () => {
    const file = minimalFile();
    (file.areas as Array<Record<string, any>>)[1]!.fallback = 'alpha-area/everything-else';
    (file.areas as Array<Record<string, any>>)[0]!.fallback = 'alpha-area/nope';
    const text = problemsOf(file).join('\n');
    expect(text).toContain('area "Alpha Area" (areas[0]) fallback: no topic has id "alpha-area/nope"');
    expect(text).toContain('area "Beta Area" (areas[1]) fallback: topic "alpha-area/everything-else" belongs to area "Alpha Area"');
  });

  it('rejects a label longer than 100 characters', () => {
    const file = minimalFile();
    (file.topics as Array<Record<string, any>>)[0]!.name = 'x'.repeat(90);
    expect(problemsOf(file).join('\n')).toMatch(/topic "alpha-area\/graph-nets" \(topics\[0\]\) name: label ".*" is 103 characters; the limit is 100/);
  });

  it('rejects a wrong version and non-objects with a message about the file', () => {
    expect(problemsOf({ ...minimalFile(), version: 2 }).join('\n')).toContain('version');
    expect(problemsOf(null).join('\n')).toContain('(file)');
    expect(problemsOf([]).join('\n')).toContain('(file)');
  });

  it('reports unreadable and unparsable files with the path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'topics-'));
    const missing = join(dir, 'missing.json');
    expect(() => loadTaxonomy(missing)).toThrow(/missing\.json is invalid:\n {2}- cannot read the file/);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ "version": 1, ');
    expect(() => loadTaxonomy(broken)).toThrow(/broken\.json is invalid:\n {2}- not valid JSON/);
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(minimalFile()));
    expect(loadTaxonomy(good).source).toBe(good);
  });
});

describe('comparison keys', () => {
  it.each([
    ['Deep Learning · Large Language Models', 'deep learning large language model'],
    ['deep-learning/large-language-models', 'deep learning large language model'],
    ['Deep Learning > LLMs', 'deep learning llm'],
    ['  LLMs!!  ', 'llm'],
    ['Théorie', 'theorie'],
    ['Transfer, Multitask and Meta-learning', 'transfer multitask meta learning'],
    ['and', 'and'],
    ['', ''],
  ])('matchKey(%j) = %j', (input, key) => {
    expect(matchKey(input)).toBe(key);
  });

  it.each([
    ['processes', 'process'],
    ['policies', 'policy'],
    ['llms', 'llm'],
    ['gans', 'gan'],
    ['analysis', 'analysis'],
    ['gps', 'gps'],
    ['bus', 'bus'],
  ])('singular(%j) = %j', (word, expected) => {
    expect(singular(word)).toBe(expected);
  });

  it.each([
    ['Computer Vision II', 'computer vision'],
    ['Machine Learning  I', 'machine learning'],
    ['cs.CL', 'cs.cl'],
    ['[Content] Vision and Language', '[content] vision and language'],
  ])('normalizeLabel(%j) = %j', (label, expected) => {
    expect(normalizeLabel(label)).toBe(expected);
  });

  it('builds labels from area and name', () => {
    expect(topicLabel({ area: 'Theory', name: 'Learning Theory' })).toBe('Theory · Learning Theory');
  });
});
