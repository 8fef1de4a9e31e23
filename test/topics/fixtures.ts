/** Small hand-written taxonomies for tests, independent of how seeds/topics.json is tuned. */

/** A minimal valid taxonomy file; tests copy it and break one thing. */
export function minimalFile(): Record<string, unknown> {
  return {
    version: 1,
    ignore: ['fair comparison'],
    areas: [
      {
        name: 'Alpha Area',
        aliases: ['aa'],
        fallback: 'alpha-area/everything-else',
        definition: { labels: { strong: ['cs.AA', 'Alpha Things'] }, phrases: { strong: ['alpha'] } },
      },
      { name: 'Beta Area', definition: { phrases: { strong: ['beta'] } } },
    ],
    topics: [
      {
        id: 'alpha-area/graph-nets',
        area: 'Alpha Area',
        name: 'Graph Nets',
        aliases: ['gnn', 'graph networks'],
        description: 'Networks on graphs.',
        definition: {
          phrases: { strong: ['graph neural network', 'gnn'], weak: ['graph', 'node'] },
          keywords: { strong: ['graph'] },
        },
      },
      {
        id: 'alpha-area/language-models',
        area: 'Alpha Area',
        name: 'Language Models',
        aliases: ['llm'],
        description: 'Big models of text.',
        definition: {
          phrases: { strong: ['large language model', 'llm', 'multi-agent system'], weak: ['language model'] },
          labels: { weak: ['cs.CL'] },
        },
      },
      {
        id: 'alpha-area/everything-else',
        area: 'Alpha Area',
        name: 'Everything Else',
        aliases: [],
        description: 'The rest of Alpha.',
        definition: { phrases: { strong: ['anomaly detection'] } },
      },
      {
        id: 'beta-area/vision-language',
        area: 'Beta Area',
        name: 'Vision and Language',
        aliases: ['vlm'],
        description: 'Images with words.',
        definition: {
          phrases: { strong: ['vision-language model', 'fairness'] },
          labels: { strong: ['Beta Primary', 'q-bio.*'] },
        },
      },
    ],
  };
}
