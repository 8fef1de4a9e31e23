/**
 * A reply's menu and buttons as Discord components: the menu (a string select whose option
 * values are the action handles) in a row of its own, then the buttons, five to a row, within
 * five rows, with every custom id unique and at most 100 characters. Pure.
 */
import type { APIActionRowComponent, APIButtonComponent, APIComponentInMessageActionRow, APISelectMenuOption } from 'discord.js';
import type { Button, Reply } from '../../src/reply.js';
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
  for (const row of reply.buttons ?? []) {
    const buttons = row.flatMap((b) => renderButton(b, used));
    for (let i = 0; i < buttons.length && rows.length < ACTION_ROWS_MAX; i += BUTTONS_PER_ROW_MAX) {
      rows.push({ type: ComponentKind.ActionRow, components: buttons.slice(i, i + BUTTONS_PER_ROW_MAX) });
    }
  }
  return rows;
}

function renderButton(button: Button, used: Set<string>): APIButtonComponent[] {
  const label = plain(button.label, BUTTON_LABEL_MAX) || '…';
  const disabled = button.disabled ? { disabled: true } : {};
  if (button.action) {
    if (button.action.length > CUSTOM_ID_MAX || used.has(button.action)) return [];
    used.add(button.action);
    return [{ type: ComponentKind.Button, style: ButtonStyleCode[button.style ?? 'secondary'], label, custom_id: button.action, ...disabled }];
  }
  const url = safeUrl(button.url);
  return url ? [{ type: ComponentKind.Button, style: ButtonStyleCode.link, label, url, ...disabled }] : [];
}
