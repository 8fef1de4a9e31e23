/**
 * Renders a neutral {@link Reply} as a Discord message body. Pure: the same reply always gives
 * the same JSON. Headings, notes and text go in `content`; each paper card is an embed (where
 * it is on a reading list, a line of its description); lists share an embed (fields when there
 * are several); buttons and the menu become components (`components.ts`); a reply's file is an
 * attachment, or a line saying it is too large for Discord.
 * Every Discord limit holds whatever the data, every piece of paper or user text is escaped,
 * and no message can ping anyone.
 */
import type { APIActionRowComponent, APIComponentInMessageActionRow, APIEmbed, APIEmbedField } from 'discord.js';
import { messages, type Messages } from '../../src/i18n/index.js';
import type { Block, LinkKind, ListItem, PaperCard, Reply, TextSegment } from '../../src/reply.js';
import { cut } from '../../src/text.js';
import { renderComponents } from './components.js';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_NAME_MAX,
  CONTENT_MAX,
  EMBEDS_MAX,
  EMBEDS_TOTAL_MAX,
  EMBED_AUTHOR_MAX,
  EMBED_DESCRIPTION_MAX,
  EMBED_FIELDS_MAX,
  EMBED_FIELD_NAME_MAX,
  EMBED_FIELD_VALUE_MAX,
  EMBED_TITLE_MAX,
  EPHEMERAL_FLAG,
} from './limits.js';
import { clean, markdown, plain, safeUrl, type Inline } from './markdown.js';

/** A message as Discord's API takes it (create, edit, interaction response). */
export interface DiscordMessage {
  content?: string;
  embeds: APIEmbed[];
  components: Array<APIActionRowComponent<APIComponentInMessageActionRow>>;
  allowed_mentions: { parse: [] };
  flags?: number;
  /** Files to attach (the request is then multipart, the file `files[0]`). */
  files?: DiscordFile[];
}

/** A file attached to a message, as text. */
export interface DiscordFile {
  name: string;
  contentType: string;
  content: string;
}

/** Embed colour of paper cards and lists. */
export const EMBED_COLOR = 0x3b6ea5;
/** Authors named on a result card and on a detail view before "et al.". */
export const CARD_AUTHORS = 3;
export const DETAIL_AUTHORS = 6;
/** Topics line under a card. */
export const CARD_FOOTER_MAX = 256;
/** The "venue · year · status" line and the links line of a card. */
const META_MAX = 200;
/** Where the card is on a reading list: who added or shared it, when, the note (500 characters). */
const PROVENANCE_MAX = 800;
const LINKS_MAX = 600;
/** Characters of a description that lists' trailing fields give way to (see `fitEmbeds`). */
const DESCRIPTION_FLOOR = 1000;
/** One item of a list, before its detail. */
const ITEM_TEXT_MAX = 200;
const ITEM_DETAIL_MAX = 200;
/** Links shown on a result card; a detail view shows all. */
const CARD_LINKS: ReadonlySet<LinkKind> = new Set(['pdf', 'code']);

/**
 * The Discord message for a reply.
 * @example renderMessage(messageReply('Type some words.', { ephemeral: true }))
 *   // { content: 'Type some words.', embeds: [], components: [], allowed_mentions: { parse: [] }, flags: 64 }
 */
export function renderMessage(reply: Reply): DiscordMessage {
  const m = messages(reply.locale);
  const lines: Inline[][] = [];
  const plans: EmbedPlan[] = [];
  let lists: ListBlock[] | undefined;
  for (const block of reply.blocks) {
    if (block.kind === 'list') {
      if (!lists) plans.push(listPlan((lists = []), m));
      lists.push(block);
      continue;
    }
    lists = undefined;
    if (block.kind === 'paper') plans.push(cardPlan(block.paper, m));
    else lines.push(...contentLines(block));
  }
  const file = reply.file && attachment(reply.file);
  if (reply.file && !file) lines.push([clean(m.t('discord.fileTooLarge', { size: megabytes(Buffer.byteLength(reply.file.content)), max: megabytes(ATTACHMENT_MAX_BYTES) }))]);
  let content = markdown(lines.flatMap((line, i) => (i === 0 ? line : ['\n', ...line])), CONTENT_MAX);
  const embeds = fitEmbeds(plans);
  // Discord refuses an empty message: the fallback text, or at least an ellipsis.
  if (!content && embeds.length === 0) content = markdown([clean(reply.fallback, { multiline: true })], CONTENT_MAX) || '…';
  return {
    ...(content && { content }),
    embeds,
    components: renderComponents(reply),
    allowed_mentions: { parse: [] },
    ...(reply.ephemeral && { flags: EPHEMERAL_FLAG }),
    ...(file && { files: [file] }),
  };
}

/** A reply's file as an attachment with a safe name, or undefined when Discord would refuse its size. */
function attachment(file: NonNullable<Reply['file']>): DiscordFile | undefined {
  if (Buffer.byteLength(file.content) > ATTACHMENT_MAX_BYTES) return undefined;
  const name = file.name.replace(/[^\w.-]/g, '_').slice(-ATTACHMENT_NAME_MAX) || 'export.txt';
  return { name, contentType: file.mediaType, content: file.content };
}

/** Bytes as megabytes, one decimal. */
function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

type ListBlock = Extract<Block, { kind: 'list' }>;

function contentLines(block: Exclude<Block, { kind: 'list' | 'paper' }>): Inline[][] {
  switch (block.kind) {
    case 'heading':
      return clean(block.text) ? [[{ bold: clean(block.text) }]] : [];
    case 'note':
      return clean(block.text) ? [[{ markup: '-# ' }, clean(block.text)]] : [];
    case 'text': {
      const line = typeof block.text === 'string' ? [clean(block.text, { multiline: true })] : segments(block.text);
      return line.some((piece) => typeof piece !== 'string' || piece.trim() !== '') ? [line] : [];
    }
    case 'divider':
      return [];
  }
}

/** Snippet segments as pieces, neighbours of the same kind merged, matches bold. */
function segments(parts: readonly TextSegment[]): Inline[] {
  const merged: TextSegment[] = [];
  // Empty parts out first, so that the text around them joins (no "@every" + "one" in two pieces).
  for (const part of parts.filter((p) => p.text !== '')) {
    const last = merged[merged.length - 1];
    if (last && Boolean(last.match) === Boolean(part.match)) last.text += part.text;
    else merged.push({ text: part.text, ...(part.match && { match: true }) });
  }
  return merged.flatMap((s): Inline[] => {
    const text = cleanInline(s.text);
    if (!text) return [];
    return [s.match ? { bold: text } : text];
  });
}

/** Control characters out, whitespace kept as single spaces (a segment may start or end with one). */
function cleanInline(text: string): string {
  const lead = /^\s/.test(text) ? ' ' : '';
  const trail = /\s$/.test(text) && text.trim() ? ' ' : '';
  const core = clean(text);
  return core ? `${lead}${core}${trail}` : lead;
}

// ── Embeds ──────────────────────────────────────────────────────────────────────────────────

/** An embed whose description can be made to fit a budget. */
interface EmbedPlan {
  build(descriptionMax: number): APIEmbed;
}

function cardPlan(card: PaperCard, m: Messages): EmbedPlan {
  const detail = card.abstract !== undefined;
  const url = safeUrl(card.url);
  const names = card.authors.map((a) => clean(a)).filter(Boolean);
  // A detail view names every author: in the author line when they fit, else in a field.
  const everyone = names.join(', ');
  const inField = detail && everyone.length > EMBED_AUTHOR_MAX;
  const authors = detail && !inField ? everyone : shortAuthors(names, detail ? DETAIL_AUTHORS : CARD_AUTHORS, m);
  const title = markdown([...(card.position !== undefined ? [{ markup: `${card.position}. ` }] : []), clean(card.title) || m.t('paper.untitled')], EMBED_TITLE_MAX);
  const meta = [clean(card.venue), card.year ?? '', clean(card.status), clean(card.citedBy?.text ?? '')].filter((x) => x !== '').join(' · ');
  const links = card.links.filter((l) => detail || CARD_LINKS.has(l.kind)).filter((l) => safeUrl(l.url));
  const body: Inline[] = detail ? [clean(card.abstract ?? '', { multiline: true })] : segments(card.snippet ?? []);
  const fields: APIEmbedField[] = inField ? [{ name: plain(m.t('paper.authorsField'), EMBED_FIELD_NAME_MAX), value: markdown([everyone], EMBED_FIELD_VALUE_MAX) }] : [];
  const topics = plain(card.topics.join(' | '), CARD_FOOTER_MAX);
  const provenance = clean(card.provenance ?? '');
  return {
    build(max) {
      const metaLine = markdown([meta], Math.min(META_MAX, max));
      // Where the paper is on a list outranks the snippet when room runs short.
      const provenanceLine = provenance ? markdown([provenance], Math.min(PROVENANCE_MAX, max - metaLine.length - 1)) : '';
      const linksLine = linksMarkdown(links, Math.min(LINKS_MAX, max - metaLine.length - provenanceLine.length - 2));
      const bodyMax = max - metaLine.length - provenanceLine.length - linksLine.length - 3;
      const bodyText = bodyMax > 0 ? markdown(body, bodyMax) : '';
      const description = [metaLine, provenanceLine, bodyText, linksLine].filter(Boolean).join('\n');
      return {
        title,
        ...(url && { url }),
        ...(authors && { author: { name: plain(authors, EMBED_AUTHOR_MAX) } }),
        ...(description && { description }),
        ...(fields.length > 0 && { fields }),
        ...(topics && { footer: { text: topics } }),
        color: EMBED_COLOR,
      };
    },
  };
}

/** "[PDF](…) · [Code](…)": whole links only, as many as fit. */
function linksMarkdown(links: ReadonlyArray<{ label: string; url: string }>, max: number): string {
  let out = '';
  for (const l of links) {
    const next = `${out ? `${out} · ` : ''}${markdown([{ link: l }], Infinity)}`;
    if (next.length > max) break;
    out = next;
  }
  return out;
}

/**
 * "A, B, C et al." for long author lists ("A, B, C 等" in Chinese).
 * @example shortAuthors(['A', 'B', 'C', 'D'], 3, messages('en')) // 'A, B, C et al.'
 */
export function shortAuthors(authors: readonly string[], max: number, m: Messages = messages('en')): string {
  if (authors.length <= max) return authors.join(', ');
  return m.t('paper.authorsMore', { authors: authors.slice(0, max).join(', ') });
}

/**
 * Consecutive lists: one list is an embed with the items as its description; several are
 * fields (side by side when their items are bare names, as in the topic list).
 */
function listPlan(lists: readonly ListBlock[], m: Messages): EmbedPlan {
  return {
    build(max) {
      const only = lists.length === 1 ? lists[0]! : undefined;
      if (only) {
        const description = fitLines(only.items.map(itemLine), max);
        const title = only.heading ? markdown([clean(only.heading)], EMBED_TITLE_MAX) : '';
        return { ...(title && { title }), ...(description && { description }), color: EMBED_COLOR };
      }
      const inline = lists.every((l) => l.items.every((i) => !i.url && !i.detail));
      const fields: APIEmbedField[] = [];
      for (const list of lists) {
        const name = markdown([clean(list.heading ?? '')], EMBED_FIELD_NAME_MAX - m.t('discord.continued', { name: '' }).length) || '\u200b';
        const chunks = chunkLines(list.items.map(itemLine), EMBED_FIELD_VALUE_MAX);
        chunks.forEach((value, i) => fields.push({ name: i === 0 ? name : m.t('discord.continued', { name }), value: value || '—', ...(inline && { inline: true }) }));
      }
      return { fields: fields.slice(0, EMBED_FIELDS_MAX), color: EMBED_COLOR };
    },
  };
}

function itemLine(item: ListItem): Inline[] {
  const text = cut(clean(item.text), ITEM_TEXT_MAX) || '…';
  const url = safeUrl(item.url);
  const detail = item.detail ? cut(clean(item.detail), ITEM_DETAIL_MAX) : '';
  return [{ markup: '• ' }, url ? { link: { label: text, url } } : text, ...(detail ? [{ markup: ' — ' }, detail] : [])];
}

/** Whole lines while they fit; the first line is cut if even it does not. */
function fitLines(lines: readonly Inline[][], max: number): string {
  let out = '';
  for (const line of lines) {
    const text = markdown(line, Infinity);
    if (out.length + (out ? 1 : 0) + text.length <= max) out += `${out ? '\n' : ''}${text}`;
    else {
      if (!out) out = markdown(line, max);
      break;
    }
  }
  return out;
}

/** Lines grouped into chunks of at most `max` characters (a line longer than that is cut). */
function chunkLines(lines: readonly Inline[][], max: number): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const line of lines) {
    const text = markdown(line, max);
    if (current && current.length + 1 + text.length > max) {
      chunks.push(current);
      current = '';
    }
    current += `${current ? '\n' : ''}${text}`;
  }
  if (current || chunks.length === 0) chunks.push(current);
  return chunks;
}

/**
 * Characters Discord counts towards {@link EMBEDS_TOTAL_MAX} in one embed.
 * @example embedLength({ title: 'abc', description: 'de' }) // 5
 */
export function embedLength(embed: APIEmbed): number {
  return (
    (embed.title?.length ?? 0) +
    (embed.description?.length ?? 0) +
    (embed.footer?.text.length ?? 0) +
    (embed.author?.name.length ?? 0) +
    (embed.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0)
  );
}

/**
 * Builds the embeds within {@link EMBEDS_MAX} and {@link EMBEDS_TOTAL_MAX}: when they are too
 * long together, the trailing fields of lists give way while a description would otherwise be
 * cut below {@link DESCRIPTION_FLOOR} (an opened paper keeps its abstract's opening before its
 * lists keep their tails), then the longest descriptions are shortened, to an equal share.
 */
function fitEmbeds(plans: readonly EmbedPlan[]): APIEmbed[] {
  const kept = plans.slice(0, EMBEDS_MAX);
  let embeds = kept.map((p) => p.build(EMBED_DESCRIPTION_MAX));
  const total = (list: APIEmbed[]) => list.reduce((n, e) => n + embedLength(e), 0);
  const natural = () => embeds.map((e) => e.description?.length ?? 0);
  const level = () => waterLevel(natural(), EMBEDS_TOTAL_MAX - embeds.reduce((n, e) => n + embedLength(e) - (e.description?.length ?? 0), 0));
  while (total(embeds) > EMBEDS_TOTAL_MAX && level() < Math.min(DESCRIPTION_FLOOR, Math.max(...natural())) && dropLastField(embeds));
  if (total(embeds) > EMBEDS_TOTAL_MAX) {
    const cap = level();
    const lengths = natural();
    embeds = embeds.map((e, i) => (lengths[i]! > cap ? kept[i]!.build(cap) : e));
  }
  // Only fields and titles are left to cut: drop trailing fields, then trailing embeds.
  while (total(embeds) > EMBEDS_TOTAL_MAX) {
    const last = embeds[embeds.length - 1]!;
    if (last.fields && last.fields.length > 1) embeds[embeds.length - 1] = { ...last, fields: last.fields.slice(0, -1) };
    else embeds.pop();
  }
  return embeds.filter((e) => e.title || e.description || e.fields?.length);
}

/** Drops the last field of the last embed with more than one (in place); false when there is none to drop. */
function dropLastField(embeds: APIEmbed[]): boolean {
  for (let i = embeds.length - 1; i >= 0; i--) {
    const fields = embeds[i]!.fields;
    if (fields && fields.length > 1) {
      embeds[i] = { ...embeds[i]!, fields: fields.slice(0, -1) };
      return true;
    }
  }
  return false;
}

/**
 * The largest cap `c` with `sum(min(length, c)) <= budget` (0 when even that is impossible).
 * @example waterLevel([100, 3000, 5000], 4100) // 2000
 */
export function waterLevel(lengths: readonly number[], budget: number): number {
  if (budget <= 0) return 0;
  const sorted = [...lengths].sort((a, b) => a - b);
  let remaining = budget;
  for (let i = 0; i < sorted.length; i++) {
    const share = Math.floor(remaining / (sorted.length - i));
    if (sorted[i]! > share) return share;
    remaining -= sorted[i]!;
  }
  return Math.max(...sorted, 0);
}
