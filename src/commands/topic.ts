/**
 * /topic [name]: the taxonomy, or the papers of one subject area, newest and best first.
 */
import { z } from 'zod';
import { UserError } from '../errors.js';
import { action, type Block, type Reply } from '../reply.js';
import type { Topic } from '../topics/taxonomy.js';
import { startSearch, shorten } from './results.js';
import { MAX_CHOICE_LENGTH, defineCommand, type CommandContext } from './types.js';

const options = z.object({
  name: z
    .string()
    .trim()
    .max(200, 'A topic name is at most 200 characters.')
    .optional()
    .describe('A subject area such as "Deep Learning · Large Language Models" (leave empty to list them)')
    .meta({ autocomplete: true }),
});

export const topicCommand = defineCommand({
  name: 'topic',
  description: 'Browse the papers of a subject area, or list the areas',
  options,
  examples: ['/topic', '/topic llm', '/topic Theory · Learning Theory'],
  fromText: (text) => (text.trim() === '' ? {} : { name: text }),
  run(ctx, { name }) {
    if (!name) return taxonomyReply(ctx);
    const found = ctx.library.topics.resolve(name);
    if ('topic' in found) return topicPapers(ctx, found.topic);
    if (found.suggestions.length === 0) {
      throw new UserError(`No topic matches "${shorten(name, 60)}". Run /topic with no name to see them all.`);
    }
    return suggestionsReply(name, found.suggestions);
  },
  autocomplete(ctx, option, value) {
    if (option !== 'name') return [];
    return ctx.library.topics.suggest(value, 25).map((t) => ({ name: shorten(t.label, MAX_CHOICE_LENGTH), value: t.id }));
  },
  actions: {
    show(ctx, [id]) {
      const topic = id ? ctx.library.taxonomy.byId(id) : undefined;
      if (!topic) throw new UserError('That topic no longer exists. Run /topic to see the current ones.');
      return topicPapers(ctx, topic);
    },
  },
});

function topicPapers(ctx: CommandContext, topic: Topic): Reply {
  return startSearch(ctx, { query: `topic:"${topic.id}"`, heading: topic.label });
}

function taxonomyReply(ctx: CommandContext): Reply {
  const blocks: Block[] = [{ kind: 'heading', text: 'Topics' }];
  for (const area of ctx.library.taxonomy.areas) {
    blocks.push({ kind: 'list', heading: area.name, items: area.topics.map((t) => ({ text: t.name })) });
  }
  blocks.push({ kind: 'note', text: 'Open one with /topic <name>, e.g. /topic llm.' });
  return {
    fallback: `Topics: ${ctx.library.taxonomy.areas.map((a) => a.name).join(', ')}`,
    blocks,
    ephemeral: true,
  };
}

function suggestionsReply(name: string, suggestions: readonly Topic[]): Reply {
  const shown = suggestions.slice(0, 25);
  return {
    fallback: `Which topic did you mean by "${shorten(name, 60)}"? ${shown.map((t) => t.label).join('; ')}`,
    blocks: [{ kind: 'text', text: `Several topics match "${shorten(name, 60)}". Pick one:` }],
    menu: {
      placeholder: 'Pick a topic…',
      choices: shown.map((t) => ({ label: shorten(t.label, 100), action: action('topic', 'show', t.id) })),
    },
    ephemeral: true,
  };
}
