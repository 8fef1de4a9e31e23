/**
 * Text for Slack, from plain text in the reply model. Pure functions.
 *
 * mrkdwn has three control characters, `&`, `<` and `>`, which are escaped as entities; escaped,
 * no title can become `<!channel>`, a mention or a link. It has no escape for its formatting
 * characters, so `*`, `_`, `~` and backticks in paper or user text become look-alikes (∗ ˍ ∼ ˋ, as
 * jsx-slack does): they read the same and format nothing, and only the `*…*` this adapter writes
 * is bold. Line breaks become spaces, so paper text never starts a line of its own (a leading
 * `>` would quote); a text that starts with `>` still gets a soft hyphen in front in case it is
 * placed at the start of one. Control, zero-width and bidi-override characters are dropped.
 */
import { BUTTON_URL_MAX, LINK_URL_MAX } from './limits.js';
import type { TextSegment } from '../../src/reply.js';
import { ELLIPSIS, cut } from '../../src/text.js';

const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const LOOKALIKES: ReadonlyMap<string, string> = new Map(Object.entries({ '*': '\u2217', _: '\u02cd', '~': '\u223c', '`': '\u02cb' }));
const ENTITIES: ReadonlyMap<string, string> = new Map(Object.entries({ '&': '&amp;', '<': '&lt;', '>': '&gt;' }));
const ZWSP = '\u200b';
const SOFT_HYPHEN = '\u00ad';

/**
 * Text on one line: without control, zero-width or bidi-override characters, every line break or
 * other whitespace a space, at most three in a row (not trimmed, so segments can be joined).
 * @example clean('a\n\tb\u202e') // 'a  b'
 */
export function clean(text: string): string {
  return text.replace(CONTROL, '').replace(/\s/g, ' ').replace(/ {4,}/g, '   ');
}

/**
 * Plain text for a plain_text object (which Slack shows as is), trimmed and cut to `max` characters.
 * @example plainText('  Attention Is All You Need ', 12) // 'Attention I…'
 */
export function plainText(text: string, max: number): string {
  return cut(clean(text).trim(), max);
}

/**
 * One character of paper or user text as mrkdwn.
 * @example escapeChar('<') // '&lt;'
 */
function escapeChar(ch: string): string {
  return ENTITIES.get(ch) ?? LOOKALIKES.get(ch) ?? ch;
}

/**
 * Paper or user text as mrkdwn that shows exactly that text, at most `max` characters long
 * (escaped), cut at a character with an ellipsis.
 * @example mrkdwn('<!channel> *bold* & co', 100) // '&lt;!channel&gt; ∗bold∗ &amp; co'
 */
export function mrkdwn(text: string, max: number): string {
  const trimmed = clean(text).trim();
  return escapeWithin(trimmed.startsWith('>') ? `${SOFT_HYPHEN}${trimmed}` : trimmed, max);
}

function escapeAll(text: string): string {
  let out = '';
  for (const ch of text) out += escapeChar(ch);
  return out;
}

/** The longest escaped beginning of `text` that fits in `room` characters. */
function escapePrefix(text: string, room: number): string {
  let out = '';
  for (const ch of text) {
    const piece = escapeChar(ch);
    if (out.length + piece.length > room) break;
    out += piece;
  }
  return out;
}

function escapeWithin(text: string, max: number): string {
  const all = escapeAll(text);
  return all.length <= max ? all : `${escapePrefix(text, max - ELLIPSIS.length)}${ELLIPSIS}`;
}

/**
 * Marked text (a snippet) as mrkdwn with the matches in bold, at most `max` characters. A match
 * glued to other text gets a zero-width space on that side so that Slack still sees a word boundary.
 * @example segmentsMrkdwn([{ text: 'a ' }, { text: 'diffusion', match: true }, { text: ' model' }], 100) // 'a *diffusion* model'
 */
export function segmentsMrkdwn(segments: readonly TextSegment[], max: number): string {
  const parts = segments.map((s) => {
    const text = clean(s.text);
    return { text, match: s.match === true && text.trim() !== '' };
  });
  while (parts.length > 0 && parts[0]!.text.trim() === '') parts.shift();
  while (parts.length > 0 && parts[parts.length - 1]!.text.trim() === '') parts.pop();
  if (parts.length === 0) return '';
  parts[0]!.text = parts[0]!.text.trimStart();
  parts[parts.length - 1]!.text = parts[parts.length - 1]!.text.trimEnd();
  if (parts[0]!.text.startsWith('>')) parts[0]!.text = `${SOFT_HYPHEN}${parts[0]!.text}`;
  let out = '';
  for (let i = 0; i < parts.length; i++) {
    const { text, match } = parts[i]!;
    let piece = escapeAll(text);
    if (match) {
      const lead = /^\s/.test(text) ? ' ' : '';
      const trail = /\s$/.test(text) ? ' ' : '';
      const before = lead === '' && out !== '' && /\S$/.test(out) ? ZWSP : '';
      const after = trail === '' && /^\S/.test(parts[i + 1]?.text ?? '') ? ZWSP : '';
      piece = `${lead}${before}*${escapeAll(text.trim())}*${after}${trail}`;
    }
    const last = i === parts.length - 1;
    if (out.length + piece.length > (last ? max : max - ELLIPSIS.length)) {
      const room = max - ELLIPSIS.length - out.length;
      return `${match ? out.trimEnd() : `${out}${escapePrefix(text, room)}`}${ELLIPSIS}`;
    }
    out += piece;
  }
  return out;
}

/**
 * An http(s) URL as it may appear inside `<url|label>`, or undefined when it is not one: other
 * schemes, `|`, `<`, `>`, whitespace or invisible characters, or longer than {@link LINK_URL_MAX}.
 * @example linkUrl('https://arxiv.org/abs/1706.03762?a=1&b=2') // 'https://arxiv.org/abs/1706.03762?a=1&amp;b=2'
 */
export function linkUrl(url: string | undefined): string | undefined {
  const valid = validUrl(url);
  const escaped = valid?.replace(/&/g, '&amp;');
  return escaped !== undefined && escaped.length <= LINK_URL_MAX ? escaped : undefined;
}

/** An http(s) URL for a button's `url` field (plain JSON, not mrkdwn), or undefined. */
export function buttonUrl(url: string | undefined): string | undefined {
  const valid = validUrl(url);
  return valid !== undefined && valid.length <= BUTTON_URL_MAX ? valid : undefined;
}

function validUrl(url: string | undefined): string | undefined {
  if (url === undefined || url.length > BUTTON_URL_MAX) return undefined;
  if (!/^https?:\/\/[^\s<>|"`]+$/i.test(url) || url.replace(CONTROL, '') !== url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A link with an mrkdwn label (already escaped), or the label alone when the URL is not safe.
 * @example link('https://arxiv.org/abs/1706.03762', 'Attention') // '<https://arxiv.org/abs/1706.03762|Attention>'
 */
export function link(url: string | undefined, label: string): string {
  const safe = linkUrl(url);
  return safe ? `<${safe}|${label}>` : label;
}

/**
 * A user mention for a Slack user id (as Slack gave it to us), or '' for anything else.
 * @example mention('U024BE7LH') // '<@U024BE7LH>'
 */
export function mention(userId: string): string {
  return /^[UW][A-Z0-9]{2,20}$/.test(userId) ? `<@${userId}>` : '';
}

/**
 * The top-level `text` of a message: plain text, with only `&`, `<` and `>` escaped (it is what
 * notifications show), cut to `max` characters.
 * @example fallbackText('A <b> & c', 100) // 'A &lt;b&gt; &amp; c'
 */
export function fallbackText(text: string, max: number): string {
  let out = '';
  const trimmed = clean(text).trim();
  for (const ch of trimmed) {
    const piece = ENTITIES.get(ch) ?? ch;
    if (out.length + piece.length > max - ELLIPSIS.length) return `${out}${ELLIPSIS}`;
    out += piece;
  }
  return out;
}
