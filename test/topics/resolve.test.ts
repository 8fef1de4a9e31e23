import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AMBIGUOUS_SUGGESTIONS,
  MAX_SUGGESTIONS,
  resolveTopic,
  suggestTopics,
  topicsByArea,
  type Resolution,
} from '../../src/topics/resolve.js';
import { MAX_LABEL_LENGTH, loadTaxonomy, parseTaxonomy } from '../../src/topics/taxonomy.js';
import { minimalFile } from './fixtures.js';

const taxonomy = loadTaxonomy();
const resolved = (r: Resolution): string | undefined => ('topic' in r ? r.topic.id : undefined);
const suggested = (r: Resolution): string[] => ('suggestions' in r ? r.suggestions.map((t) => t.id) : []);

describe('resolveTopic', () => {
  it.each([
    ['llm', 'deep-learning/large-language-models'],
    ['LLMs', 'deep-learning/large-language-models'],
    ['  LLM  ', 'deep-learning/large-language-models'],
    ['language models', 'deep-learning/large-language-models'],
    ['Deep Learning · Large Language Models', 'deep-learning/large-language-models'],
    ['deep learning / large language models', 'deep-learning/large-language-models'],
    ['Deep Learning > LLMs', 'deep-learning/large-language-models'],
    ['deep-learning/large-language-models', 'deep-learning/large-language-models'],
    ['DEEP LEARNING · LARGE LANGUAGE MODELS', 'deep-learning/large-language-models'],
    ['causal', 'general-machine-learning/causality'],
    ['causality', 'general-machine-learning/causality'],
    ['Causal inference', 'general-machine-learning/causality'],
    ['rl', 'reinforcement-learning/deep-rl'],
    ['graph neural', 'deep-learning/graph-neural-networks'],
    ['GNNs', 'deep-learning/graph-neural-networks'],
    ['theory learning', 'theory/learning-theory'],
    ['learning theory', 'theory/learning-theory'],
    ['safety', 'social-aspects/safety'],
    ['Social Aspects · Safety', 'social-aspects/safety'],
    ['diffusion', 'deep-learning/generative-models'],
    ['GANs', 'deep-learning/generative-models'],
    ['Generative Models & Autoencoders', 'deep-learning/generative-models'],
    ['kernels', 'general-machine-learning/kernel-methods'],
    ['General Machine Learning · Kernel methods', 'general-machine-learning/kernel-methods'],
    ['Probabilistic Methods · Graphical Models', 'probabilistic-methods/graphical-models'],
    ['Optimization · Discrete and Combinatorial Optimization', 'optimization/discrete-and-combinatorial'],
    ['Theory · Everything Else', 'theory/everything-else'],
    ['gaussian processes', 'probabilistic-methods/gaussian-processes'],
    ['bayesian optimization', 'probabilistic-methods/gaussian-processes'],
    ['federated', 'optimization/large-scale-and-distributed'],
    ['offline rl', 'reinforcement-learning/offline'],
    ['multi agent', 'reinforcement-learning/multi-agent'],
    ['nerf', 'computer-vision/3d-vision'],
    ['SLAM', 'robotics/perception-and-localization'],
    ['rlhf', 'deep-learning/large-language-models'],
    ['transformers', 'deep-learning/attention-mechanisms'],
    ['Self-Supervised', 'deep-learning/self-supervised-learning'],
    ['interpretabilty', 'social-aspects/interpretability'],
    ['reinforcment learning inverse', 'reinforcement-learning/inverse-and-imitation'],
    ['Théorie des jeux', undefined],
    ['Ünsupervised', 'general-machine-learning/unsupervised-and-semi-supervised-learning'],
  ])('resolves %j', (input, id) => {
    const r = resolveTopic(taxonomy, input);
    if (id === undefined) expect(resolved(r)).toBeUndefined();
    else expect(resolved(r), JSON.stringify(r)).toBe(id);
  });

  it('offers an area’s topics, best first, for an area name', () => {
    for (const name of ['deep learning', 'Deep Learning', 'nlp', 'computer vision', 'reinforcement learning', 'optimization']) {
      const r = resolveTopic(taxonomy, name);
      expect(resolved(r), name).toBeUndefined();
      expect(suggested(r).length, name).toBeGreaterThan(1);
      expect(suggested(r).length).toBeLessThanOrEqual(AMBIGUOUS_SUGGESTIONS);
    }
    const dl = suggested(resolveTopic(taxonomy, 'deep learning'));
    expect(dl[0]).toBe('deep-learning/large-language-models');
    expect(dl.every((id) => id.startsWith('deep-learning/'))).toBe(true);
  });

  it('offers choices for names several topics share', () => {
    const theory = suggested(resolveTopic(taxonomy, 'theory'));
    expect(theory).toContain('deep-learning/theory');
    expect(theory).toContain('theory/learning-theory');
    const rest = suggested(resolveTopic(taxonomy, 'everything else'));
    expect(rest.every((id) => id.endsWith('/everything-else'))).toBe(true);
    expect(rest.length).toBeGreaterThan(3);
  });

  it('returns few or no suggestions for nonsense and nothing for empty input', () => {
    for (const input of ['', '   ', '!!!', '··· / > ···', '🚀🚀', 'qwzx blorf', 'zzzzzzzz', 'asdfghjkl']) {
      const r = resolveTopic(taxonomy, input);
      expect(resolved(r), input).toBeUndefined();
      expect(suggested(r).length, input).toBeLessThanOrEqual(2);
    }
  });

  it('copes with 10 kB of input quickly', () => {
    const big = 'large language models '.repeat(500);
    expect(big.length).toBeGreaterThan(10_000);
    const start = performance.now();
    const r = resolveTopic(taxonomy, big);
    expect(performance.now() - start).toBeLessThan(1000);
    // What the words name, however often they are said.
    expect(resolved(r), JSON.stringify(suggested(r))).toBe('deep-learning/large-language-models');
    expect(resolveTopic(taxonomy, 'x'.repeat(10_000))).toEqual({ suggestions: [] });
  });

  it('never throws and always returns a well-formed answer (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (input) => {
        const r = resolveTopic(taxonomy, input);
        if ('topic' in r) expect(taxonomy.byId(r.topic.id)).toBe(r.topic);
        else expect(r.suggestions.length).toBeLessThanOrEqual(AMBIGUOUS_SUGGESTIONS);
      }),
      { numRuns: 300 },
    );
  });

  it('works on any taxonomy, not just the shipped one', () => {
    const small = parseTaxonomy(minimalFile());
    expect(resolved(resolveTopic(small, 'gnn'))).toBe('alpha-area/graph-nets');
    expect(suggested(resolveTopic(small, 'aa'))).toEqual([
      'alpha-area/graph-nets',
      'alpha-area/language-models',
      'alpha-area/everything-else',
    ]);
  });
});

describe('suggestTopics', () => {
  it('lists topics in taxonomy order for an empty prefix, 25 by default', () => {
    const all = suggestTopics(taxonomy, '');
    expect(all).toHaveLength(MAX_SUGGESTIONS);
    expect(all).toEqual(taxonomy.topics.slice(0, MAX_SUGGESTIONS));
  });

  it('respects the limit and never repeats a topic', () => {
    expect(suggestTopics(taxonomy, 'learning', 5)).toHaveLength(5);
    expect(suggestTopics(taxonomy, 'learning', 0)).toEqual([]);
    expect(suggestTopics(taxonomy, 'learning', -3)).toEqual([]);
    expect(suggestTopics(taxonomy, 'learning', Number.NaN).length).toBeLessThanOrEqual(MAX_SUGGESTIONS);
    const many = suggestTopics(taxonomy, 'l', 100);
    expect(new Set(many).size).toBe(many.length);
  });

  it('completes what is being typed', () => {
    expect(suggestTopics(taxonomy, 'deep learning · la')[0]?.id).toBe('deep-learning/large-language-models');
    expect(suggestTopics(taxonomy, 'llm')[0]?.id).toBe('deep-learning/large-language-models');
    expect(suggestTopics(taxonomy, 'caus')[0]?.id).toBe('general-machine-learning/causality');
    expect(suggestTopics(taxonomy, 'grap').map((t) => t.id)).toContain('deep-learning/graph-neural-networks');
    expect(suggestTopics(taxonomy, 'robo').slice(0, 5).map((t) => t.area)).toEqual(Array(5).fill('Robotics'));
    expect(suggestTopics(taxonomy, 'class').length).toBeGreaterThan(0);
  });

  it('keeps choices within platform limits for any input (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.integer({ min: 0, max: 30 }), (prefix, limit) => {
        const out = suggestTopics(taxonomy, prefix, limit);
        expect(out.length).toBeLessThanOrEqual(limit);
        expect(new Set(out).size).toBe(out.length);
        for (const t of out) expect(t.label.length).toBeLessThanOrEqual(MAX_LABEL_LENGTH);
      }),
      { numRuns: 200 },
    );
  });
});

describe('topicsByArea', () => {
  it('lists every topic once, grouped by area in taxonomy order', () => {
    const groups = topicsByArea(taxonomy);
    expect(groups.map((g) => g.area)).toEqual(taxonomy.areas.map((a) => a.name));
    expect(groups.flatMap((g) => g.topics.map((t) => t.id))).toHaveLength(taxonomy.topics.length);
    for (const g of groups) for (const t of g.topics) expect(t.area).toBe(g.area);
  });
});
