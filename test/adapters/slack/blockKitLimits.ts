/**
 * Checks a Slack message against Block Kit's limits and against our escaping rules, and lists
 * every violation (an empty list means it is fine). Written from Slack's reference, independent of
 * the renderer: the tests use it on rendered replies and on what reaches the fake Slack.
 */
import {
  ACTIONS_ELEMENTS_MAX,
  ACTION_ID_MAX,
  BLOCKS_JSON_MAX,
  BUTTON_TEXT_MAX,
  BUTTON_URL_MAX,
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
} from '../../../adapters/slack/limits.js';

type Json = Record<string, unknown>;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const LINK = /<(https?:\/\/[^\s<>|]+)\|([^<>]*)>/g;
const MENTION = /<@[UW][A-Z0-9]{2,20}>/g;

/** Violations of our mrkdwn rules: only our links and mentions, entities escaped, no stray formatting. */
export function mrkdwnViolations(text: string, where = 'mrkdwn'): string[] {
  const out: string[] = [];
  if (CONTROL.test(text.replace(/\n/g, ''))) out.push(`${where}: control character in ${JSON.stringify(text.slice(0, 80))}`);
  const labels: string[] = [];
  const rest = text.replace(LINK, (_, url: string, label: string) => {
    if (/&(?!amp;|lt;|gt;)/.test(url)) out.push(`${where}: unescaped & in link URL ${url.slice(0, 80)}`);
    labels.push(label);
    return label;
  });
  const bare = rest.replace(MENTION, '');
  if (/[<>]/.test(bare)) out.push(`${where}: raw < or > in ${JSON.stringify(bare.slice(0, 120))}`);
  if (/&(?!amp;|lt;|gt;)/.test(bare)) out.push(`${where}: unescaped & in ${JSON.stringify(bare.slice(0, 120))}`);
  if (/[_~`]/.test(bare)) out.push(`${where}: formatting character _ ~ or \` in ${JSON.stringify(bare.slice(0, 120))}`);
  // Our bold spans open and close on the same line and hold no '*'; nothing else may use '*'.
  const unbolded = bare.replace(/\*[^*\n]+\*/g, '');
  if (unbolded.includes('*')) out.push(`${where}: stray * in ${JSON.stringify(bare.slice(0, 120))}`);
  for (const line of text.split('\n')) if (/^\s*(&gt;|>)/.test(line)) out.push(`${where}: a line starts with > (a quote): ${line.slice(0, 80)}`);
  return out;
}

/** Violations of Block Kit limits and escaping in a message `{ text, blocks }`. */
export function limitViolations(message: { text?: unknown; blocks?: unknown }): string[] {
  const out: string[] = [];
  const text = message.text;
  if (typeof text !== 'string' || text.length === 0) out.push('text: missing plain-text fallback');
  else {
    if (text.length > FALLBACK_TEXT_MAX) out.push(`text: ${text.length} > ${FALLBACK_TEXT_MAX}`);
    if (/[<>]|&(?!amp;|lt;|gt;)/.test(text)) out.push(`text: unescaped & < or > in ${JSON.stringify(text.slice(0, 120))}`);
  }
  const blocks = message.blocks;
  if (!Array.isArray(blocks)) return [...out, 'blocks: not an array'];
  if (blocks.length > MAX_BLOCKS) out.push(`blocks: ${blocks.length} > ${MAX_BLOCKS}`);
  const size = JSON.stringify(blocks).length;
  if (size > BLOCKS_JSON_MAX) out.push(`blocks: ${size} characters of JSON > ${BLOCKS_JSON_MAX}`);
  const actionIds = new Set<string>();
  blocks.forEach((block: Json, i) => {
    const where = `blocks[${i}] (${String(block.type)})`;
    switch (block.type) {
      case 'header':
        out.push(...plain(block.text, HEADER_TEXT_MAX, `${where}.text`));
        break;
      case 'section':
        out.push(...textObject(block.text, SECTION_TEXT_MAX, `${where}.text`));
        break;
      case 'context': {
        const elements = block.elements as Json[];
        if (!Array.isArray(elements) || elements.length === 0 || elements.length > CONTEXT_ELEMENTS_MAX) out.push(`${where}: 1..${CONTEXT_ELEMENTS_MAX} elements`);
        else elements.forEach((e, j) => out.push(...textObject(e, SECTION_TEXT_MAX, `${where}.elements[${j}]`)));
        break;
      }
      case 'actions': {
        const elements = block.elements as Json[];
        if (!Array.isArray(elements) || elements.length === 0 || elements.length > ACTIONS_ELEMENTS_MAX) out.push(`${where}: 1..${ACTIONS_ELEMENTS_MAX} elements`);
        else elements.forEach((e, j) => out.push(...element(e, `${where}.elements[${j}]`, actionIds)));
        break;
      }
      case 'divider':
        break;
      default:
        out.push(`${where}: unexpected block type`);
    }
  });
  return out;
}

function element(e: Json, where: string, actionIds: Set<string>): string[] {
  const out: string[] = [];
  const id = e.action_id;
  if (typeof id !== 'string' || id.length === 0 || id.length > ACTION_ID_MAX) out.push(`${where}.action_id: 1..${ACTION_ID_MAX} characters`);
  else if (actionIds.has(id)) out.push(`${where}.action_id: "${id}" is not unique`);
  else actionIds.add(id);
  if (e.type === 'button') {
    out.push(...plain(e.text, BUTTON_TEXT_MAX, `${where}.text`));
    if (e.value !== undefined && (typeof e.value !== 'string' || e.value.length > BUTTON_VALUE_MAX)) out.push(`${where}.value: > ${BUTTON_VALUE_MAX}`);
    if (e.url !== undefined && (typeof e.url !== 'string' || e.url.length > BUTTON_URL_MAX || !/^https?:\/\/\S+$/.test(e.url))) out.push(`${where}.url: not an http(s) URL within ${BUTTON_URL_MAX}`);
    if (e.value === undefined && e.url === undefined) out.push(`${where}: a button with neither value nor url`);
  } else if (e.type === 'static_select') {
    out.push(...plain(e.placeholder, PLACEHOLDER_MAX, `${where}.placeholder`));
    const options = e.options as Json[];
    if (!Array.isArray(options) || options.length === 0 || options.length > SELECT_OPTIONS_MAX) out.push(`${where}: 1..${SELECT_OPTIONS_MAX} options`);
    else {
      options.forEach((o, k) => {
        out.push(...plain(o.text, OPTION_TEXT_MAX, `${where}.options[${k}].text`));
        if (o.description !== undefined) out.push(...plain(o.description, OPTION_TEXT_MAX, `${where}.options[${k}].description`));
        if (typeof o.value !== 'string' || o.value.length === 0 || o.value.length > OPTION_VALUE_MAX) out.push(`${where}.options[${k}].value: 1..${OPTION_VALUE_MAX}`);
      });
    }
  } else out.push(`${where}: unexpected element type ${String(e.type)}`);
  return out;
}

function plain(value: unknown, max: number, where: string): string[] {
  const o = value as Json | undefined;
  if (o?.type !== 'plain_text' || typeof o.text !== 'string') return [`${where}: not a plain_text object`];
  const out: string[] = [];
  if (o.text.trim().length === 0 || o.text.length > max) out.push(`${where}: ${o.text.length} characters, not 1..${max}`);
  if (CONTROL.test(o.text) || o.text.includes('\n')) out.push(`${where}: control character or newline`);
  return out;
}

function textObject(value: unknown, max: number, where: string): string[] {
  const o = value as Json | undefined;
  if (o?.type === 'plain_text') return plain(o, max, where);
  if (o?.type !== 'mrkdwn' || typeof o.text !== 'string') return [`${where}: not a text object`];
  const out: string[] = [];
  if (o.text.trim().length === 0 || o.text.length > max) out.push(`${where}: ${o.text.length} characters, not 1..${max}`);
  if (o.verbatim !== true) out.push(`${where}: mrkdwn without verbatim: true (Slack would auto-link and parse mentions)`);
  out.push(...mrkdwnViolations(o.text, where));
  return out;
}
