/**
 * /topic [name]: the taxonomy, or the papers of one subject area, newest and best first. Names
 * are matched in every language the taxonomy has and shown in the member's.
 */
import { z } from 'zod';
import { UserError } from '../errors.js';
import { action, type Block, type Reply } from '../reply.js';
import type { Topic } from '../topics/taxonomy.js';
import { shorten } from '../text.js';
import { startSearch } from './results.js';
import { MAX_CHOICE_LENGTH, defineCommand, type CommandContext } from './types.js';

const MAX_NAME_LENGTH = 200;

const options = z.object({
  name: z.string().trim().max(MAX_NAME_LENGTH, 'topic.nameTooLong').optional().meta({ autocomplete: true }),
});

export const topicCommand = defineCommand({
  name: 'topic',
  options,
  fromText: (text) => (text.trim() === '' ? {} : { name: text }),
  run(ctx, { name }) {
    if (!name) return taxonomyReply(ctx);
    const found = ctx.library.topics.resolve(name);
    if ('topic' in found) return topicPapers(ctx, found.topic);
    if (found.suggestions.length === 0) throw new UserError('topic.noMatch', { name: shorten(name, 60) });
    return suggestionsReply(ctx, name, found.suggestions);
  },
  autocomplete(ctx, option, value) {
    if (option !== 'name') return [];
    return ctx.library.topics.suggest(value, 25).map((t) => ({ name: shorten(label(ctx, t), MAX_CHOICE_LENGTH), value: t.id }));
  },
  actions: {
    show(ctx, [id]) {
      const topic = id ? ctx.library.taxonomy.byId(id) : undefined;
      if (!topic) throw new UserError('topic.gone');
      return topicPapers(ctx, topic);
    },
  },
});

function label(ctx: CommandContext, topic: Topic): string {
  return ctx.library.taxonomy.label(topic, ctx.i18n.dataLocale);
}

function topicPapers(ctx: CommandContext, topic: Topic): Promise<Reply> {
  return startSearch(ctx, { query: `topic:"${topic.id}"`, heading: topic.labels });
}

function taxonomyReply(ctx: CommandContext): Reply {
  const { taxonomy } = ctx.library;
  const locale = ctx.i18n.dataLocale;
  const blocks: Block[] = [{ kind: 'heading', text: ctx.i18n.t('topic.listHeading') }];
  for (const area of taxonomy.areas) {
    blocks.push({ kind: 'list', heading: taxonomy.areaName(area, locale), items: area.topics.map((t) => ({ text: t.names[locale] ?? t.name })) });
  }
  blocks.push({ kind: 'note', text: ctx.i18n.t('topic.listHint') });
  return {
    fallback: ctx.i18n.t('topic.listFallback', { areas: taxonomy.areas.map((a) => taxonomy.areaName(a, locale)).join(', ') }),
    blocks,
    ephemeral: true,
  };
}

function suggestionsReply(ctx: CommandContext, name: string, suggestions: readonly Topic[]): Reply {
  const shown = suggestions.slice(0, 25);
  const typed = shorten(name, 60);
  return {
    fallback: ctx.i18n.t('topic.ambiguousFallback', { name: typed, topics: shown.map((t) => label(ctx, t)).join('; ') }),
    blocks: [{ kind: 'text', text: ctx.i18n.t('topic.ambiguous', { name: typed }) }],
    menu: {
      placeholder: ctx.i18n.t('topic.pickMenu'),
      choices: shown.map((t) => ({ label: shorten(label(ctx, t), 100), action: action('topic', 'show', t.id) })),
    },
    ephemeral: true,
  };
}
