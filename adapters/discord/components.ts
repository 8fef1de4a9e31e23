/**
 * A reply's menu and buttons as Discord components: the menu (a string select whose option
 * values are the action handles) in a row of its own, then the paper cards' own buttons, then
 * the reply's buttons, five to a row, within five rows, with every custom id unique and at most
 * 100 characters. Pure.
 *
 * An embed cannot hold a button, so a card's buttons are numbered as the cards are ("Save 1" …
 * "Save 5" for results 1–5, "Save 6" … on the next page), one row per kind of button; when rows
 * run short the reply's own buttons (Prev/Next, Back) keep theirs.
 */
import type { APIActionRowComponent, APIButtonComponent, APIComponentInMessageActionRow, APISelectMenuOption } from 'discord.js';
import { messages, type Messages } from '../../src/i18n/index.js';
import { formHandle, type Button, type PaperCard, type Reply } from '../../src/reply.js';
import {
  ACTION_ROWS_MAX,
  BUTTONS_PER_ROW_MAX,
  BUTTON_LABEL_MAX,
  ButtonStyleCode,
  ComponentKind,
  CUSTOM_ID_MAX,
  SELECT_OPTIONS_MAX,
  SELECT_OPTION_DESCRIPTION_MAX,
  SELECT_OPTION_LABEL_MAX,
  SELECT_OPTION_VALUE_MAX,
  SELECT_PLACEHOLDER_MAX,
} from './limits.js';
import { plain, safeUrl } from './markdown.js';

/** The `custom_id` of the select menu; its option values are the action handles. */
export const MENU_CUSTOM_ID = 'menu';

/**
 * @example renderComponents({ fallback: '', blocks: [], buttons: [[{ label: 'Next ▶', action: 'paper:page:k3f9x2:1' }]] })
 *   // [{ type: 1, components: [{ type: 2, style: 2, label: 'Next ▶', custom_id: 'paper:page:k3f9x2:1' }] }]
 */
export function renderComponents(reply: Reply): Array<APIActionRowComponent<APIComponentInMessageActionRow>> {
  const rows: Array<APIActionRowComponent<APIComponentInMessageActionRow>> = [];
  const used = new Set<string>([MENU_CUSTOM_ID]);
  if (reply.menu) {
    const seen = new Set<string>();
    const options: APISelectMenuOption[] = [];
    for (const choice of reply.menu.choices) {
      if (!choice.action || choice.action.length > SELECT_OPTION_VALUE_MAX || seen.has(choice.action)) continue;
      seen.add(choice.action);
      const description = choice.description ? plain(choice.description, SELECT_OPTION_DESCRIPTION_MAX) : '';
      options.push({ label: plain(choice.label, SELECT_OPTION_LABEL_MAX) || '…', value: choice.action, ...(description && { description }) });
      if (options.length === SELECT_OPTIONS_MAX) break;
    }
    const placeholder = plain(reply.menu.placeholder, SELECT_PLACEHOLDER_MAX);
    if (options.length > 0) {
      rows.push({ type: ComponentKind.ActionRow, components: [{ type: ComponentKind.StringSelect, custom_id: MENU_CUSTOM_ID, ...(placeholder && { placeholder }), options }] });
    }
  }
  const own: typeof rows = [];
  for (const row of reply.buttons ?? []) {
    const buttons = row.flatMap((b) => renderButton(b, used));
    for (let i = 0; i < buttons.length && rows.length + own.length < ACTION_ROWS_MAX; i += BUTTONS_PER_ROW_MAX) {
      own.push({ type: ComponentKind.ActionRow, components: buttons.slice(i, i + BUTTONS_PER_ROW_MAX) });
    }
  }
  const room = ACTION_ROWS_MAX - rows.length - own.length;
  const cards = cardRows(reply, messages(reply.locale), used).slice(0, room);
  return [...rows, ...cards, ...own];
}

/**
 * The cards' buttons, numbered as the cards are: row `j` holds every card's `j`-th button.
 * A lone card without a number keeps the plain label.
 */
function cardRows(reply: Reply, m: Messages, used: Set<string>): Array<APIActionRowComponent<APIComponentInMessageActionRow>> {
  const cards = reply.blocks.flatMap((b): PaperCard[] => (b.kind === 'paper' && b.paper.actions?.length ? [b.paper] : []));
  const kinds = Math.max(0, ...cards.map((c) => c.actions!.length));
  const rows: Array<APIActionRowComponent<APIComponentInMessageActionRow>> = [];
  for (let j = 0; j < kinds; j++) {
    const buttons = cards.flatMap((card, i) => {
      const button = card.actions![j];
      if (!button) return [];
      const number = card.position ?? (cards.length > 1 ? i + 1 : undefined);
      const label = number === undefined ? button.label : m.t('discord.cardAction', { label: button.label, position: number });
      return renderButton({ ...button, label }, used);
    });
    for (let i = 0; i < buttons.length; i += BUTTONS_PER_ROW_MAX) rows.push({ type: ComponentKind.ActionRow, components: buttons.slice(i, i + BUTTONS_PER_ROW_MAX) });
  }
  return rows;
}

function renderButton(button: Button, used: Set<string>): APIButtonComponent[] {
  const label = plain(button.label, BUTTON_LABEL_MAX) || '…';
  const disabled = button.disabled ? { disabled: true } : {};
  // A form's button carries the form's handle, on which the adapter opens the modal (modal.ts).
  const customId = button.action ?? (button.form === undefined ? undefined : formHandle(button.form));
  if (customId) {
    if (customId.length > CUSTOM_ID_MAX || used.has(customId)) return [];
    used.add(customId);
    return [{ type: ComponentKind.Button, style: ButtonStyleCode[button.style ?? 'secondary'], label, custom_id: customId, ...disabled }];
  }
  const url = safeUrl(button.url);
  return url ? [{ type: ComponentKind.Button, style: ButtonStyleCode.link, label, url, ...disabled }] : [];
}
