import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClassifier, createTopicScorer, type ClassifiablePaper } from '../../src/topics/classify.js';
import { compilePhrases, phraseVariants, pluralOf, scanPhrases } from '../../src/topics/phrases.js';
import { loadTaxonomy, parseTaxonomy } from '../../src/topics/taxonomy.js';
import { minimalFile } from './fixtures.js';

const paper = (p: Partial<ClassifiablePaper>): ClassifiablePaper => ({
  title: p.title ?? 'Untitled',
  abstract: p.abstract ?? '',
  keywords: p.keywords ?? [],
  labels: p.labels ?? [],
});

describe('phrase matching', () => {
  it.each([
    ['policy', 'policies'],
    ['process', 'processes'],
    ['analysis', 'analyses'],
    ['network', 'networks'],
    ['box', 'boxes'],
    ['dynamics', undefined],
    ['gpt4', undefined],
    ['a', undefined],
  ])('pluralOf(%j) = %j', (word, plural) => {
    expect(pluralOf(word)).toBe(plural);
  });

  it('matches the plural of the last word and hyphenated words written together', () => {
    expect(phraseVariants('multi-agent system')).toEqual([
      ['multi', 'agent', 'system'],
      ['multi', 'agent', 'systems'],
      ['multiagent', 'system'],
      ['multiagent', 'systems'],
    ]);
  });

  it('takes the longest phrase at each position, skips ignored phrases, and continues after a match', () => {
    const trie = compilePhrases(
      [
        { phrase: 'language model', target: 0, weight: 1 },
        { phrase: 'vision-language model', target: 1, weight: 2 },
        { phrase: 'model', target: 2, weight: 1 },
      ],
      ['fair comparison'],
    );
    const found: string[] = [];
    scanPhrases(trie, 'A vision-language model, a language model; a fair comparison of models', (s, e, hits) =>
      found.push(`${s}-${e}:${hits.map((h) => h.target).join(',')}`),
    );
    expect(found).toEqual(['1-4:1', '5-7:0', '11-12:2']);
  });

  it('counts positions in tokenize\'s words in text that is not ASCII too, and in words too long to keep whole', () => {
    const trie = compilePhrases([{ phrase: 'graph neural network', target: 0, weight: 1 }, { phrase: 'gnn', target: 1, weight: 1 }]);
    const found = (text: string) => {
      const out: string[] = [];
      scanPhrases(trie, text, (s, e, hits) => out.push(`${s}-${e}:${hits[0]!.target}`));
      return out;
    };
    expect(found('Łukasz and Søren: Graph Neural Networks (GNN)')).toEqual(['3-6:0', '6-7:1']);
    expect(found(`${'x'.repeat(60)} graph neural networks, gnn`)).toEqual(['1-4:0', '4-5:1']);
    expect(found('Graph neural networks – a GNN survey')).toEqual(['0-3:0', '4-5:1']);
  });
});

describe('classifier scoring rules (fixture taxonomy)', () => {
  const taxonomy = parseTaxonomy(minimalFile(), 'fixture');
  const classify = createClassifier(taxonomy);

  it('assigns a topic for a strong phrase in the title', () => {
    expect(classify(paper({ title: 'Deep Graph Neural Networks' }))).toEqual(['alpha-area/graph-nets']);
  });

  it('does not assign a topic for one passing mention in the abstract, but does for three', () => {
    const once = 'We study sorting. Unlike a large language model, our method is exact.';
    expect(classify(paper({ abstract: once }))).toEqual([]);
    const thrice = 'A large language model is tested. The large language model fails. We fix the large language model.';
    expect(classify(paper({ abstract: thrice }))).toEqual(['alpha-area/language-models']);
  });

  it('counts "large language models (LLMs)" as one mention, not two', () => {
    const scorer = createTopicScorer(taxonomy);
    const abstract = 'Large language models (LLMs) are popular. We study LLMs.';
    // Two mentions: 2 + 1 = 3 points, below the threshold of 4.
    expect(scorer(paper({ abstract }))).toEqual([]);
    expect(scorer(paper({ abstract: `${abstract} Another LLM result.` }))).toEqual([
      { id: 'alpha-area/language-models', score: 4, fallback: false },
    ]);
  });

  it('ranks a title mention above an abstract mention', () => {
    const result = classify(
      paper({
        title: 'A graph neural network for molecules',
        abstract: 'We compare with a large language model and a large language model baseline, and an LLM.',
      }),
    );
    expect(result).toEqual(['alpha-area/graph-nets', 'alpha-area/language-models']);
  });

  it('never decides on weak phrases alone', () => {
    const weakOnly = paper({ title: 'Graph node language model', abstract: 'graph graph graph node node node node' });
    expect(classify(weakOnly)).toEqual([]);
    // ...but a weak keyword the taxonomy promotes to strong does decide.
    expect(classify(paper({ title: 'Something', keywords: ['Graph'] }))).toEqual(['alpha-area/graph-nets']);
  });

  it('maps strong labels alone, weak labels only as support; matches label wildcards and roman numerals', () => {
    expect(classify(paper({ labels: ['Beta Primary II'] }))).toEqual(['beta-area/vision-language']);
    expect(classify(paper({ labels: ['q-bio.NC'] }))).toEqual(['beta-area/vision-language']);
    // cs.CL is a weak label for Language Models and a strong label of nothing: no topic by itself.
    expect(classify(paper({ labels: ['cs.CL'] }))).toEqual([]);
  });

  it('assigns the area fallback when only the area has evidence', () => {
    expect(classify(paper({ labels: ['cs.AA'] }))).toEqual(['alpha-area/everything-else']);
    expect(createTopicScorer(taxonomy)(paper({ title: 'Alpha' }))).toEqual([
      { id: 'alpha-area/everything-else', score: 4, fallback: true },
    ]);
  });

  it('lets area evidence tip a topic over the threshold', () => {
    const abstract = 'We build a large language model and test the large language model.';
    expect(classify(paper({ abstract }))).toEqual([]);
    expect(classify(paper({ abstract, labels: ['cs.AA'] }))).toEqual(['alpha-area/language-models']);
  });

  it('drops "Everything Else" when a sibling topic of its area is assigned', () => {
    const both = paper({ title: 'Anomaly detection with graph neural networks' });
    expect(classify(both)).toEqual(['alpha-area/graph-nets']);
    expect(classify(paper({ title: 'Anomaly detection in logs' }))).toEqual(['alpha-area/everything-else']);
  });

  it('uses longest matches and the ignore list', () => {
    expect(classify(paper({ title: 'A vision-language model' }))).toEqual(['beta-area/vision-language']);
    expect(classify(paper({ title: 'A fair comparison of sorting' }))).toEqual([]);
    expect(classify(paper({ title: 'Multiagent systems' }))).toEqual(['alpha-area/language-models']);
  });

  it('returns at most maxTopics, best first, and drops topics far below the best', () => {
    const busy = paper({
      title: 'Graph neural networks, large language models and vision-language models',
      abstract: 'graph neural network graph neural network gnn gnn',
    });
    expect(createClassifier(taxonomy, { maxTopics: 2 })(busy)).toHaveLength(2);
    expect(classify(busy)[0]).toBe('alpha-area/graph-nets');
    const lopsided = paper({
      title: 'Graph neural networks: a GNN survey of graph neural network methods',
      abstract: 'graph neural network gnn graph neural network gnn. A large language model once, and an LLM.',
      keywords: ['graph neural networks'],
    });
    expect(classify(lopsided)).toEqual(['alpha-area/graph-nets']);
  });

  it('is deterministic and keeps no state between papers', () => {
    const a = paper({ title: 'Graph neural networks', abstract: 'An LLM. An LLM. An LLM.' });
    const b = paper({ title: 'Alpha beta', labels: ['cs.AA', 'Beta Primary'] });
    const first = classify(a);
    classify(b);
    expect(classify(a)).toEqual(first);
    expect(createClassifier(taxonomy)(a)).toEqual(first);
    // Equal scores break on taxonomy order.
    expect(classify(paper({ title: 'Vision-language model meets graph neural network' }))).toEqual([
      'alpha-area/graph-nets',
      'beta-area/vision-language',
    ]);
  });

  it('survives hostile input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 3000 }), fc.array(fc.string(), { maxLength: 5 }), (t, a, k) => {
        const out = classify({ title: t, abstract: a, keywords: k, labels: k });
        expect(out.length).toBeLessThanOrEqual(3);
        expect(new Set(out).size).toBe(out.length);
      }),
      { numRuns: 200 },
    );
    const huge = 'graph '.repeat(20_000) + 'ünïcödé 🚀 \u0000 \u202e';
    expect(classify(paper({ title: huge.slice(0, 1000), abstract: huge }))).toEqual([]);
  });
});

describe('classifier on the shipped taxonomy', () => {
  const classify = createClassifier(loadTaxonomy());

  it('finds LLM papers by title, not by one passing mention', () => {
    expect(classify(paper({ title: 'Scaling Large Language Models to Long Contexts' }))).toContain(
      'deep-learning/large-language-models',
    );
    const passing = paper({
      title: 'Optimal Sample Complexity of Sparse Recovery',
      abstract:
        'We give a polynomial-time estimator for sparse linear regression with optimal sample complexity. ' +
        'Unlike approaches that prompt a language model, our method comes with guarantees.',
    });
    expect(classify(passing)).not.toContain('deep-learning/large-language-models');
    expect(classify(passing)[0]).toBe('theory/learning-theory');
  });

  it('maps arXiv categories to areas, not to a subarea', () => {
    const onlyCategory = paper({ title: 'On Some Observations', labels: ['cs.CL'] });
    expect(classify(onlyCategory)).toEqual(['natural-language-processing/everything-else']);
    const withText = paper({
      title: 'On Some Observations',
      abstract: 'We translate between languages with a neural machine translation model and evaluate machine translation quality.',
      labels: ['cs.CL'],
    });
    expect(classify(withText)[0]).toBe('natural-language-processing/machine-translation');
    expect(classify(paper({ title: 'Selling Items', labels: ['cs.GT'] }))).toEqual(['theory/game-theory']);
  });

  it('uses venue primary areas and author keywords', () => {
    expect(classify(paper({ title: 'A Study', labels: ['Computer Vision II'] }))).toEqual(['computer-vision/everything-else']);
    expect(classify(paper({ title: 'A Study', keywords: ['Machine Learning: ML: Federated Learning'] }))).toContain(
      'optimization/large-scale-and-distributed',
    );
  });

  it('gives no topic to a paper without evidence', () => {
    expect(classify(paper({ title: 'Notes on a Quiet Afternoon', abstract: 'We walked home. Then we had tea.' }))).toEqual([]);
    expect(classify(paper({ title: '', abstract: '' }))).toEqual([]);
  });
});
