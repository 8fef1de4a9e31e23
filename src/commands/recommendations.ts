/**
 * `/library recommend [scope:mine|channel]`: papers like a member's saved papers or a channel's
 * reading list and shares, newest first, each card saying why in one line ("like ‹saved
 * title›, ‹word›, ‹word›"). A list of fewer than {@link MIN_PROFILE_PAPERS} papers is too
 * little to go on: the reply says so and how to add more.
 */
import { UserError } from '../errors.js';
import { MIN_PROFILE_PAPERS, whyLine } from '../recommend/reason.js';
import type { Block, PaperCard, Reply } from '../reply.js';
import { profilePaperIds } from '../store/readingLists.js';
import { channelLabel, channelList, memberList, saveButton } from './lists.js';
import type { ListScope } from './listPages.js';
import { cardsFallback, openMenu } from './results.js';
import type { CommandContext } from './types.js';

/** Recommendations one reply shows. */
export const RECOMMEND_SHOWN = 5;

/**
 * Recommendations for a list, as a reply (private for a member's own list).
 * @example await recommendForList(ctx, 'mine')
 */
export async function recommendForList(ctx: CommandContext, scope: ListScope): Promise<Reply> {
  const m = ctx.i18n;
  const owner = scope === 'mine' ? memberList(ctx) : channelList(ctx);
  const ids = await profilePaperIds(ctx.readingLists, owner);
  const held = await ctx.library.papersByIds(ids);
  const seeds = ids.filter((id) => held.has(id));
  if (seeds.length < MIN_PROFILE_PAPERS) {
    const text = m.t(scope === 'mine' ? 'library.recommend.tooFewMine' : 'library.recommend.tooFewChannel', { count: seeds.length, least: MIN_PROFILE_PAPERS });
    return { locale: m.locale, fallback: text, blocks: [{ kind: 'text', text }], ephemeral: true };
  }
  const found = await ctx.library.recommend(seeds, { where: 'sort:new', limit: RECOMMEND_SHOWN });
  if (!found.ok) throw new UserError(found.notes[0]!);
  const heading = scope === 'mine' ? m.t('library.recommend.headingMine') : m.t('library.recommend.headingChannel', { channel: channelLabel(ctx, m) });
  if (found.hits.length === 0) {
    const text = m.t('library.recommend.none');
    return { locale: m.locale, fallback: text, blocks: [{ kind: 'text', text }], ephemeral: true };
  }
  const papers = await ctx.library.papersByDocs(found.hits.map((h) => h.storeDoc));
  const cards = found.hits.flatMap((hit, i): PaperCard[] => {
    const paper = papers.get(hit.storeDoc);
    if (!paper) return [];
    const base = ctx.library.card(paper, hit.storeDoc, { position: i + 1, messages: m });
    return [{ ...base, provenance: whyLine(m, hit.why), actions: [saveButton(m, hit.storeDoc)] }];
  });
  const blocks: Block[] = [
    { kind: 'heading', text: heading },
    { kind: 'note', text: m.t('library.recommend.basis', { count: seeds.length }) },
    ...cards.map((paper): Block => ({ kind: 'paper', paper })),
  ];
  return {
    locale: m.locale,
    fallback: cardsFallback(heading, cards),
    blocks,
    menu: openMenu(m, cards),
    ...(scope === 'mine' ? { ephemeral: true } : { shareable: true }),
  };
}
