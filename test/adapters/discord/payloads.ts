/**
 * INTERACTION_CREATE payloads shaped as Discord sends them, built from the recorded-shape
 * fixtures in test/fixtures/discord/ (a slash command, an autocomplete, a button click, a menu
 * choice and a submitted modal in a server channel) with a fresh interaction id and token each.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/* eslint-disable @typescript-eslint/no-explicit-any */

const fixture = (name: string): any => JSON.parse(readFileSync(fileURLToPath(new URL(`../../fixtures/discord/${name}.json`, import.meta.url)), 'utf8'));
const TEMPLATES = {
  command: fixture('chat-input'),
  autocomplete: fixture('autocomplete'),
  button: fixture('button'),
  select: fixture('string-select'),
  modal: fixture('modal-submit'),
};

let counter = 0;

/** Anything that hands out snowflakes (the fake Discord does). */
export interface Ids {
  snowflake(): string;
  applicationId: string;
}

function base(template: any, ids: Ids, locale?: string): any {
  const payload = structuredClone(template);
  payload.id = ids.snowflake();
  payload.application_id = ids.applicationId;
  payload.token = `aW50ZXJhY3Rpb246${payload.id}${(++counter).toString(36)}${Buffer.from(payload.id).toString('base64url')}`;
  if (locale) payload.locale = locale;
  return payload;
}

/**
 * `/name option:value …` (or `/name subcommand option:value …`) as typed in a server channel,
 * by a member with the fixture's permissions or with `permissions` (a bitfield string); or
 * typed where the fixture `from` (test/fixtures/discord/<from>.json) was, with its fields as they are.
 */
export function slashCommand(
  ids: Ids,
  name: string,
  options: Record<string, string | number | boolean> = {},
  extra: { locale?: string; subcommand?: string; permissions?: string; from?: string } = {},
): any {
  const payload = extra.from ? fromFixture(ids, extra.from) : base(TEMPLATES.command, ids, extra.locale);
  const values = Object.entries(options).map(([n, value]) => ({ name: n, type: typeof value === 'string' ? 3 : typeof value === 'boolean' ? 5 : Number.isInteger(value) ? 4 : 10, value }));
  const list = extra.subcommand ? [{ name: extra.subcommand, type: 1, ...(values.length > 0 && { options: values }) }] : values;
  payload.data = { id: '1190000000000000500', name, type: 1, ...(list.length > 0 && { options: list }) };
  if (extra.permissions) payload.member.permissions = extra.permissions;
  return payload;
}

/** The user typing `value` into option `option` of `/name`. */
export function autocomplete(ids: Ids, name: string, option: string, value: string): any {
  const payload = base(TEMPLATES.autocomplete, ids);
  payload.data = { id: '1190000000000000500', name, type: 1, options: [{ focused: true, name: option, type: 3, value }] };
  return payload;
}

/**
 * A message the bot sent, as Discord delivers it inside a component interaction, built from
 * the body of the bot's answer (an interaction callback's `data` or an edit).
 */
export function botMessage(ids: Ids, body: any): any {
  const message = structuredClone(TEMPLATES.button.message);
  message.id = ids.snowflake();
  message.content = body.content ?? '';
  message.embeds = body.embeds ?? [];
  message.components = (body.components ?? []).map((row: any, i: number) => ({
    ...row,
    id: i * 10 + 1,
    components: row.components.map((c: any, j: number) => ({ ...c, id: i * 10 + j + 2 })),
  }));
  message.flags = body.flags ?? 0;
  return message;
}

/** A click on the button `customId` of `message`. */
export function buttonClick(ids: Ids, customId: string, message?: any): any {
  const payload = base(TEMPLATES.button, ids);
  payload.data = { component_type: 2, custom_id: customId, id: 2 };
  if (message) payload.message = message;
  return payload;
}

/** A choice in the select menu `customId` of `message`. */
export function menuChoice(ids: Ids, customId: string, values: string[], message?: any): any {
  const payload = base(TEMPLATES.select, ids);
  payload.data = { component_type: 3, custom_id: customId, id: 3, values };
  if (message) payload.message = message;
  return payload;
}

/**
 * A modal `customId` submitted with `text` in its text box (`text`, in a label, as the
 * fixture has it), or with `components` as given (a hostile submission).
 */
export function modalSubmit(ids: Ids, customId: string, text: string, options: { components?: unknown; message?: any; locale?: string } = {}): any {
  const payload = base(TEMPLATES.modal, ids, options.locale);
  payload.data.custom_id = customId;
  if (options.components !== undefined) payload.data.components = options.components;
  else payload.data.components[0].component.value = text;
  if (options.message) payload.message = options.message;
  return payload;
}

/**
 * A recorded-shape payload from test/fixtures/discord/<name>.json as it is, with a fresh
 * interaction id and token (and nothing added that the fixture lacks).
 */
export function fromFixture(ids: Pick<Ids, 'snowflake'>, name: string): any {
  const payload = fixture(name);
  payload.id = ids.snowflake();
  payload.token = `aW50ZXJhY3Rpb246${payload.id}${(++counter).toString(36)}`;
  return payload;
}
