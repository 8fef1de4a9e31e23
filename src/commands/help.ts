/**
 * /help: what the bot does and the search syntax, generated from the command registry.
 */
import { z } from 'zod';
import type { Block } from '../reply.js';
import { defineCommand, type Command } from './types.js';

const options = z.object({});

/** The search syntax, one example a line. */
export const SYNTAX_HELP: ReadonlyArray<[string, string]> = [
  ['diffusion transformers', 'words from the title, authors, keywords or abstract; typos are forgiven'],
  ['"exact phrase"  -word', 'a phrase that must appear; a word that must not'],
  ['author:"Yoshua Bengio"', 'papers by an author (initials work: author:"Y. Bengio")'],
  ['venue:icml  year:2019  year:2018..2020', 'by venue and year (also year:>=2021)'],
  ['topic:"Theory · Learning Theory"', 'by topic (forgiving: topic:llm)'],
  ['sort:new', 'newest first'],
  ['https://arxiv.org/abs/1706.03762', 'a paper by its arXiv id, DOI, OpenReview or paper link'],
];

/** Builds /help over the given commands (the registry passes itself in). */
export function createHelpCommand(list: () => readonly Command[]): Command {
  return defineCommand({
    name: 'help',
    description: 'How to search papers with Paper Scout',
    options,
    examples: ['/help'],
    fromText: () => ({}),
    run() {
      const commands = list();
      const blocks: Block[] = [
        { kind: 'heading', text: 'Paper Scout' },
        {
          kind: 'list',
          heading: 'Commands',
          items: commands.map((c) => ({ text: `/${c.name}: ${c.description}`, detail: c.examples.join('   ') })),
        },
        { kind: 'list', heading: 'Search syntax', items: SYNTAX_HELP.map(([example, what]) => ({ text: example, detail: what })) },
      ];
      return {
        fallback: `Paper Scout commands: ${commands.map((c) => `/${c.name}`).join(', ')}`,
        blocks,
        ephemeral: true,
      };
    },
  });
}
