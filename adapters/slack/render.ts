/**
 * Renders the neutral Reply as Slack Block Kit, and a paper as an unfurl card. Pure: the same
 * reply always gives the same JSON, and every Block Kit limit holds whatever the reply holds
 * (see limits.ts). When a reply would not fit, paper cards lose their extras first (topics,
 * links, then snippets), then trailing blocks give way to a note; the buttons always stay.
 * A card's own button (Save) is the accessory of its title section, beside the card it acts
 * on; where the card is on a reading list (who added or shared it, the note) is a context line
 * under the title.
 */
import type { types } from '@slack/bolt';
import { messages, type Messages } from '../../src/i18n/index.js';
import type { Block, Button, ListItem, PaperCard, Reply } from '../../src/reply.js';
import {
  ACTIONS_ELEMENTS_MAX,
  ACTION_ID_MAX,
  BLOCKS_JSON_MAX,
  BUTTON_TEXT_MAX,
  BUTTON_VALUE_MAX,
  CONTEXT_ELEMENTS_MAX,
  FALLBACK_TEXT_MAX,
  HEADER_TEXT_MAX,
  MAX_BLOCKS,
  OPTION_TEXT_MAX,
  OPTION_VALUE_MAX,
  PLACEHOLDER_MAX,
  SECTION_TEXT_MAX,
  SELECT_OPTIONS_MAX,
} from './limits.js';
import { buttonUrl, fallbackText, link, mention, mrkdwn, plainText, segmentsMrkdwn } from './mrkdwn.js';

export type SlackBlock = types.KnownBlock;

/** A message body for chat.postMessage, chat.update, chat.postEphemeral or a response_url. */
export interface SlackMessage {
  /** Plain-text fallback: notifications, screen readers, clients without Block Kit. */
  text: string;
  blocks: SlackBlock[];
}

export interface RenderOptions {
  /** The value of a "Share in channel" button (none without it). */
  share?: string;
  /** The Slack user id of who shared this message into the channel. */
  sharedBy?: string;
}

/** action_id prefixes: a core action handle button, a link button, the menu, the Share button. */
export const ACTION_PREFIX = 'ps:';
export const ACT_ID = 'ps:act';
export const LINK_ID = 'ps:link';
export const MENU_ID = 'ps:menu';
export const SHARE_ID = 'ps:share';
/** block_id of the "Shared by" line, found again when a shared message is updated. */
export const SHARED_BY_BLOCK_ID = 'ps:shared-by';
/** The Share button's label and the note on a shortened reply, in English (each reply's language is used). */
export const SHARE_LABEL = messages('en').t('slack.share');
export const TRUNCATED_NOTE = messages('en').t('slack.truncated');

/** How much of each paper card to show; a reply that does not fit tries the next level. */
type Detail = 'full' | 'compact' | 'minimal';
const DETAILS: readonly Detail[] = ['full', 'compact', 'minimal'];

/** Per-field caps (characters of mrkdwn) that keep one card's section within SECTION_TEXT_MAX. */
const TITLE_MAX = 300;
const AUTHORS_MAX = { full: 400, compact: 200, minimal: 0 } as const;
const AUTHORS_SHOWN = { full: 6, compact: 3, minimal: 0 } as const;
const META_MAX = 200;
const SNIPPET_MAX = { full: 900, compact: 300, minimal: 0 } as const;
const ABSTRACT_MAX = { full: 2900, compact: 1000, minimal: 0 } as const;
const TOPICS_MAX = 400;
const LINKS_SHOWN = 6;
const LINK_LABEL_MAX = 40;
const LINKS_MAX = 1800;
const NOTE_MAX = 1000;
const LIST_LABEL_MAX = 200;
/** Where a card is on a reading list (a note holds up to 500 characters). */
const PROVENANCE_MAX = 1000;

/**
 * A reply as a Slack message.
 * @example renderReply(reply, { share: 'run:paper:diffusion' }).blocks[0] // { type: 'header', … }
 */
export function renderReply(reply: Reply, options: RenderOptions = {}): SlackMessage {
  const m = messages(reply.locale);
  const text = fallbackText(reply.fallback, FALLBACK_TEXT_MAX) || ' ';
  const tail: SlackBlock[] = [];
  const by = options.sharedBy !== undefined ? mention(options.sharedBy) : '';
  // Catalog text and a well-formed user mention: nothing to escape.
  if (by) tail.push({ type: 'context', block_id: SHARED_BY_BLOCK_ID, elements: [{ type: 'mrkdwn', text: m.t('slack.sharedBy', { user: by }), verbatim: true }] });
  const controls = renderControls(reply, options.share, m);
  for (const detail of DETAILS) {
    const blocks = [...reply.blocks.flatMap((b, i) => renderBlock(b, detail, m, i)), ...tail, ...controls];
    if (fits(blocks)) return { text, blocks };
  }
  return { text, blocks: squeeze(reply.blocks.flatMap((b, i) => renderBlock(b, 'minimal', m, i)), [...tail, ...controls], m) };
}

/**
 * A paper as a compact link-unfurl card: linked title, authors, venue · year · status, the
 * opening of the abstract and its topics.
 */
export function renderUnfurl(paper: PaperCard, m: Messages = messages('en')): SlackBlock[] {
  const lines = [titleLine(paper, m), authorsLine(paper, 3, 200, m), metaLine(paper)];
  if (paper.snippet && paper.snippet.length > 0) lines.push(segmentsMrkdwn(paper.snippet, 300));
  return [section(lines), ...context([topicsLine(paper)])];
}

/**
 * The core's answer to a shared link as unfurl blocks, in the reply's language: a paper's card
 * as a compact unfurl card, anything else (an apology, a busy library) as the reply's own blocks.
 */
export function renderUnfurlReply(reply: Reply): SlackBlock[] {
  const [only] = reply.blocks;
  if (reply.blocks.length === 1 && only?.kind === 'paper') return renderUnfurl(only.paper, messages(reply.locale));
  return renderReply(reply).blocks;
}

/** `at`: the block's place in the reply, which names its buttons (action ids are unique in a message). */
function renderBlock(block: Block, detail: Detail, m: Messages, at: number): SlackBlock[] {
  switch (block.kind) {
    case 'heading': {
      const text = plainText(block.text, HEADER_TEXT_MAX);
      return text ? [{ type: 'header', text: { type: 'plain_text', text } }] : [];
    }
    case 'text': {
      const text = typeof block.text === 'string' ? mrkdwn(block.text, SECTION_TEXT_MAX) : segmentsMrkdwn(block.text, SECTION_TEXT_MAX);
      return text ? [section([text])] : [];
    }
    case 'note':
      return context([mrkdwn(block.text, NOTE_MAX)]);
    case 'divider':
      return [{ type: 'divider' }];
    case 'list':
      return renderList(block.heading, block.items);
    case 'paper':
      return renderPaper(block.paper, detail, m, at);
  }
}

function renderPaper(paper: PaperCard, detail: Detail, m: Messages, at: number): SlackBlock[] {
  const full = paper.abstract !== undefined;
  const lines = [titleLine(paper, m)];
  if (detail !== 'minimal') lines.push(authorsLine(paper, full ? Infinity : AUTHORS_SHOWN[detail], AUTHORS_MAX[detail], m));
  lines.push(metaLine(paper));
  if (!full && paper.snippet && detail !== 'minimal') lines.push(segmentsMrkdwn(paper.snippet, SNIPPET_MAX[detail]));
  const [accessory, ...more] = (paper.actions ?? []).flatMap((b, j) => renderButton(b, `b${at}:${j}`));
  const blocks: SlackBlock[] = [section(lines, accessory)];
  if (more.length > 0) blocks.push({ type: 'actions', elements: more.slice(0, ACTIONS_ELEMENTS_MAX) });
  if (paper.provenance) blocks.push(...context([mrkdwn(paper.provenance, PROVENANCE_MAX)]));
  const abstract = full && detail !== 'minimal' ? mrkdwn(paper.abstract ?? '', ABSTRACT_MAX[detail]) : '';
  if (abstract) blocks.push(section([abstract]));
  if (detail === 'full') blocks.push(...context([topicsLine(paper), linksLine(paper, m)]));
  return blocks;
}

function topicsLine(paper: PaperCard): string {
  return mrkdwn(paper.topics.filter((t) => t.trim() !== '').join(' | '), TOPICS_MAX);
}

/** The paper's links that are safe to link, as many as fit in {@link LINKS_MAX} characters. */
function linksLine(paper: PaperCard, m: Messages): string {
  let out = '';
  for (const l of paper.links.slice(0, LINKS_SHOWN)) {
    const linked = link(l.url, mrkdwn(l.label, LINK_LABEL_MAX) || mrkdwn(m.t('slack.link'), LINK_LABEL_MAX));
    if (!linked.startsWith('<')) continue;
    const next = out ? `${out} · ${linked}` : linked;
    if (next.length > LINKS_MAX) break;
    out = next;
  }
  return out;
}

function titleLine(paper: PaperCard, m: Messages): string {
  const number = paper.position !== undefined ? `${paper.position}. ` : '';
  const title = mrkdwn(paper.title, TITLE_MAX) || mrkdwn(m.t('paper.untitled'), TITLE_MAX);
  return `*${link(paper.url, `${number}${title}`)}*`;
}

function authorsLine(paper: PaperCard, shown: number, max: number, m: Messages): string {
  if (paper.authors.length === 0 || max === 0) return '';
  const names = paper.authors.slice(0, shown).map((a) => a.trim()).join(', ');
  return mrkdwn(paper.authors.length > shown ? m.t('paper.authorsMore', { authors: names }) : names, max);
}

function metaLine(paper: PaperCard): string {
  return mrkdwn([paper.venue, paper.year ?? '', paper.status, paper.citedBy?.text ?? ''].map(String).filter((s) => s.trim() !== '').join(' · '), META_MAX);
}

function renderList(heading: string | undefined, items: readonly ListItem[]): SlackBlock[] {
  const lines: string[] = [];
  const title = heading ? mrkdwn(heading, LIST_LABEL_MAX) : '';
  if (title) lines.push(`*${title}*`);
  for (const item of items) {
    const label = link(item.url, mrkdwn(item.text, LIST_LABEL_MAX) || '…');
    const detail = item.detail ? mrkdwn(item.detail, LIST_LABEL_MAX) : '';
    lines.push(`• ${label}${detail ? ` — ${detail}` : ''}`);
  }
  const sections: SlackBlock[] = [];
  let current: string[] = [];
  for (const line of lines) {
    if (current.length > 0 && [...current, line].join('\n').length > SECTION_TEXT_MAX) {
      sections.push(section(current));
      current = [];
    }
    current.push(line);
  }
  if (current.length > 0) sections.push(section(current));
  return sections;
}

/** Buttons (one actions block per row), the menu, list items' actions reachable no other way, Share. */
function renderControls(reply: Reply, share: string | undefined, m: Messages): SlackBlock[] {
  let n = 0;
  const rows: types.ActionsBlockElement[][] = (reply.buttons ?? []).map((row) => row.flatMap((b) => renderButton(b, `${n++}`)));
  const reachable = new Set([...(reply.buttons ?? []).flat().map((b) => b.action), ...(reply.menu?.choices ?? []).map((c) => c.action)]);
  const orphans = reply.blocks.flatMap((b) => (b.kind === 'list' ? b.items.filter((i) => i.action && !reachable.has(i.action)) : []));
  rows.push(orphans.flatMap((i) => renderButton({ label: i.text, action: i.action! }, `${n++}`)));
  const extra: types.ActionsBlockElement[] = [];
  const menu = reply.menu && renderMenu(reply.menu, m);
  if (menu) extra.push(menu);
  if (share !== undefined && share.length <= BUTTON_VALUE_MAX) {
    extra.push({ type: 'button', action_id: SHARE_ID, text: { type: 'plain_text', text: plainText(m.t('slack.share'), BUTTON_TEXT_MAX) }, value: share, style: 'primary' });
  }
  const nonEmpty = rows.filter((r) => r.length > 0);
  const last = nonEmpty[nonEmpty.length - 1];
  if (last && last.length + extra.length <= ACTIONS_ELEMENTS_MAX) last.push(...extra);
  else if (extra.length > 0) nonEmpty.push(extra);
  return nonEmpty.flatMap((row) => chunk(row, ACTIONS_ELEMENTS_MAX)).map((elements) => ({ type: 'actions', elements }));
}

/** A button; `suffix` makes its action_id (`ps:act:<suffix>`, a link's `ps:link:<suffix>`) unique in the message. */
function renderButton(button: Button, suffix: string): types.Button[] {
  const text = plainText(button.label, BUTTON_TEXT_MAX);
  if (button.disabled || !text) return [];
  const style = button.style === 'primary' || button.style === 'danger' ? { style: button.style } : {};
  if (button.action !== undefined) {
    if (button.action.length === 0 || button.action.length > BUTTON_VALUE_MAX) return [];
    return [{ type: 'button', action_id: `${ACT_ID}:${suffix}`.slice(0, ACTION_ID_MAX), text: { type: 'plain_text', text }, value: button.action, ...style }];
  }
  const url = buttonUrl(button.url);
  return url ? [{ type: 'button', action_id: `${LINK_ID}:${suffix}`.slice(0, ACTION_ID_MAX), text: { type: 'plain_text', text }, url, ...style }] : [];
}

function renderMenu(menu: NonNullable<Reply['menu']>, m: Messages): types.StaticSelect | undefined {
  const options = menu.choices
    .filter((c) => c.action.length > 0 && c.action.length <= OPTION_VALUE_MAX && plainText(c.label, OPTION_TEXT_MAX))
    .slice(0, SELECT_OPTIONS_MAX)
    .map((c): types.PlainTextOption => {
      const description = c.description ? plainText(c.description, OPTION_TEXT_MAX) : '';
      return {
        text: { type: 'plain_text', text: plainText(c.label, OPTION_TEXT_MAX) },
        value: c.action,
        ...(description && { description: { type: 'plain_text', text: description } }),
      };
    });
  if (options.length === 0) return undefined;
  return { type: 'static_select', action_id: MENU_ID, placeholder: { type: 'plain_text', text: plainText(menu.placeholder, PLACEHOLDER_MAX) || plainText(m.t('slack.choose'), PLACEHOLDER_MAX) }, options };
}

/** Drops trailing content (then menu options, then controls) until the message fits. */
function squeeze(content: SlackBlock[], controls: SlackBlock[], m: Messages): SlackBlock[] {
  const note = context([mrkdwn(m.t('slack.truncated'), NOTE_MAX)])[0]!;
  const kept = [...content];
  while (kept.length > 0 && !fits([...kept, note, ...controls])) kept.pop();
  if (kept.length > 0 || fits([note, ...controls])) return [...kept, note, ...controls];
  const actions = controls.map((b) => (b.type === 'actions' ? { ...b, elements: b.elements.filter((e) => e.type !== 'static_select') } : b));
  const slim = actions.filter((b) => b.type !== 'actions' || b.elements.length > 0);
  while (slim.length > 0 && !fits([note, ...slim])) slim.pop();
  return [note, ...slim];
}

function fits(blocks: readonly SlackBlock[]): boolean {
  return blocks.length <= MAX_BLOCKS && JSON.stringify(blocks).length <= BLOCKS_JSON_MAX;
}

function section(lines: readonly string[], accessory?: types.Button): SlackBlock {
  const text = lines.filter((l) => l !== '').join('\n');
  return { type: 'section', text: { type: 'mrkdwn', text: text || ' ', verbatim: true }, ...(accessory && { accessory }) };
}

/** A context block of the non-empty texts, or none. */
function context(texts: readonly string[]): SlackBlock[] {
  const elements = texts.filter((t) => t.trim() !== '').slice(0, CONTEXT_ELEMENTS_MAX);
  return elements.length > 0 ? [{ type: 'context', elements: elements.map((text) => ({ type: 'mrkdwn', text, verbatim: true })) }] : [];
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
