/**
 * Papers as cards, the neutral form every front end renders (`PaperCard` in `reply.ts`): title
 * and links, authors, venue, year and status, topic labels, and either a snippet of the abstract
 * around the words a search matched or the whole abstract. The card's own words (status, topic
 * labels, link names) are in the reader's language; the paper's text is as published.
 */
import { messages as messagesFor, type Messages } from '../i18n/index.js';
import type { LinkKind, PaperCard, PaperLink, TextSegment } from '../reply.js';
import type { MatchedWord, SearchResult } from '../search/engine.js';
import type { WeightedWord } from '../search/meaning/stage.js';
import { buildSnippet, closestSentence } from '../search/snippet.js';
import type { PaperStore } from '../store/papers.js';
import type { SiteLinks } from '../site/links.js';
import type { Taxonomy } from '../topics/taxonomy.js';
import type { Paper } from './model.js';
import { statusKey } from './status.js';

export interface CardOptions {
  /** The words a search matched, for the snippet's marks. */
  words?: readonly MatchedWord[];
  /** A description's words and their weights, when the search read it as one: the snippet is then the abstract's closest sentence. */
  meaning?: readonly WeightedWord[];
  /** The whole abstract (after the authors' TL;DR, where the venue has one) instead of a snippet. */
  detail?: boolean;
  /** The paper's place in a result list, from 1. */
  position?: number;
  /** The reader's language (English by default). */
  messages?: Messages;
  /**
   * The search site (PUBLIC_URL): the card's title then leads to the paper's page there, and
   * every link of the paper, its landing page first, is among the card's links.
   */
  site?: SiteLinks;
}

/**
 * A paper as a card: a snippet of its abstract around `words` for a result list, or with
 * `detail` its whole abstract (after the authors' TL;DR, where the venue has one). Its status,
 * topic labels and link names are in the language of `messages` (English by default); the
 * paper's own text is as published.
 * @example paperCard(taxonomy, paper, doc, { detail: true, messages: messages('zh-CN') }).topics // ['深度学习 · 注意力机制与Transformer']
 */
export function paperCard(taxonomy: Taxonomy, paper: Paper, doc: number, options: CardOptions = {}): PaperCard {
  const m = options.messages ?? messagesFor();
  const links = paperLinks(paper).map((l) => ({ ...l, label: m.t(`paper.link.${l.kind}`) }));
  const url = options.site ? options.site.paper(paper.id) : links[0]?.url;
  const card: PaperCard = {
    id: paper.id,
    doc,
    title: paper.title,
    ...(url && { url }),
    authors: paper.authors,
    venue: paper.venue,
    year: paper.year,
    status: statusText(paper.status, m),
    ...(paper.citations && { citedBy: citedBy(paper.citations.count, m, options.detail ? 'exact' : 'compact') }),
    topics: paper.topics.flatMap((id) => {
      const topic = taxonomy.byId(id);
      return topic ? [taxonomy.label(topic, m.dataLocale)] : [];
    }),
    links: options.site ? links : links.slice(1),
    ...(options.position !== undefined && { position: options.position }),
  };
  if (options.detail) card.abstract = paper.tldr ? `${m.t('paper.tldr', { tldr: paper.tldr })}\n\n${paper.abstract}` : paper.abstract;
  else if (paper.abstract) card.snippet = abstractSnippet(paper.abstract, options);
  return card;
}

/**
 * The snippet of an abstract a result shows: the sentence closest to a description (`meaning`),
 * else the passage around the matched `words`.
 * @example segmentsToText(abstractSnippet(paper.abstract, { meaning: result.meaning }))
 */
export function abstractSnippet(abstract: string, options: Pick<CardOptions, 'words' | 'meaning'>): TextSegment[] {
  return options.meaning ? closestSentence(abstract, options.meaning) : buildSnippet(abstract, options.words ?? []);
}

/**
 * Result cards for `result.hits[from .. from+count)`, with snippets of the matched words, in the
 * language of `messages`. The papers are read in one go; a hit whose paper the store no longer
 * has is left out.
 * @example await resultCards(store, taxonomy, result, 0, 5, messages('en'))
 */
export async function resultCards(
  store: Pick<PaperStore, 'papersByDocs'>,
  taxonomy: Taxonomy,
  result: SearchResult,
  from: number,
  count: number,
  messages?: Messages,
  site?: SiteLinks,
): Promise<PaperCard[]> {
  const hits = result.hits.slice(from, from + count);
  const papers = await store.papersByDocs(hits.map((h) => h.storeDoc));
  return hits.flatMap((hit, i) => {
    const paper = papers.get(hit.storeDoc);
    return paper ? [paperCard(taxonomy, paper, hit.storeDoc, { words: result.words, ...(result.meaning && { meaning: result.meaning }), position: from + i + 1, ...(messages && { messages }), ...(site && { site }) })] : [];
  });
}

/**
 * A paper's links, landing page first: page, PDF, code, project, then arXiv, DOI and OpenReview
 * when they add something; labelled in English (cards relabel them in the reader's language).
 * @example paperLinks(paper)[0] // { kind: 'page', label: 'Page', url: 'https://arxiv.org/abs/1706.03762' }
 */
export function paperLinks(paper: Pick<Paper, 'links' | 'externalIds'>): PaperLink[] {
  const { links, externalIds } = paper;
  const arxiv = externalIds.arxiv && `https://arxiv.org/abs/${externalIds.arxiv}`;
  const openreview = externalIds.openreview && `https://openreview.net/forum?id=${externalIds.openreview}`;
  const doi = externalIds.doi && `https://doi.org/${externalIds.doi}`;
  const candidates: Array<[LinkKind, string | undefined]> = [
    ['page', links.page ?? arxiv ?? openreview ?? doi],
    ['pdf', links.pdf ?? (externalIds.arxiv ? `https://arxiv.org/pdf/${externalIds.arxiv}` : undefined)],
    ['code', links.code],
    ['project', links.project],
    ['arxiv', arxiv],
    ['openreview', openreview],
    ['doi', doi],
  ];
  const english = messagesFor();
  const seen = new Set<string>();
  const out: PaperLink[] = [];
  for (const [kind, url] of candidates) {
    if (!url || seen.has(url)) continue;
    seen.add(url);
    out.push({ kind, label: english.t(`paper.link.${kind}`), url });
  }
  return out;
}

/**
 * A citation count as a card shows it: compact on a result card ("cited by 12k", "被引 1.2万"),
 * exact in a detail view ("cited by 12,345", "被引 12,345 次").
 * @example citedBy(12345, messages('en'), 'compact') // { count: 12345, text: 'cited by 12k' }
 */
export function citedBy(count: number, m: Messages, form: 'compact' | 'exact'): NonNullable<PaperCard['citedBy']> {
  return { count, text: m.t(form === 'compact' ? 'paper.citedByShort' : 'paper.citedBy', { count }) };
}

/** A stored status in the reader's language; one outside the vocabulary (a venue's own track name) as stored. */
function statusText(status: string, m: Messages): string {
  const key = statusKey(status);
  return key ? m.t(key) : status;
}
