/**
 * Discord command definitions, derived from the core's command registry (names, zod options)
 * and the message catalog (descriptions in English and, as `description_localizations`, in
 * Chinese for Discord's zh-CN and zh-TW clients), and the difference between them and what
 * Discord has registered, localizations included, so that the deploy script can say what it
 * changes. Names stay as typed in every language: `/paper` is `/paper` on every platform and in
 * every help text. Pure.
 */
import type { APIApplicationCommandOption, RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import { commandDescription, optionSpecs, type OptionSpec } from '../../src/commands/registry.js';
import { MAX_DESCRIPTION_LENGTH, type Command, type Subcommand } from '../../src/commands/types.js';
import { DEFAULT_LOCALE, isMessageKey, messages, type Locale, type Messages } from '../../src/i18n/index.js';
import { CHOICE_NAME_MAX, CHOICE_VALUE_MAX, STRING_OPTION_MAX } from './limits.js';

export type CommandDefinition = RESTPostAPIChatInputApplicationCommandsJSONBody;

/** Discord's option types. */
const OPTION_TYPE = { subcommand: 1, string: 3, integer: 4, boolean: 5, number: 10 } as const;
/** The Manage Channels permission bit, for commands that need it. */
const MANAGE_CHANNELS = '16';
/**
 * Discord's own locales each catalog serves, besides the default one (whose text is the
 * definition itself): zh-TW readers get Simplified Chinese, as everywhere.
 */
export const DISCORD_LOCALES: Readonly<Partial<Record<Locale, readonly string[]>>> = { 'zh-CN': ['zh-CN', 'zh-TW'] };

type Localizations = Record<string, string>;

/** Asks Discord for commands with every localization (`name_localizations`, `description_localizations`). */
export const WITH_LOCALIZATIONS = new URLSearchParams({ with_localizations: 'true' });

/** The same text in each of Discord's locales that a catalog serves, from a function of the messages. */
function localizations(text: (m: Messages) => string): Localizations | undefined {
  const base = text(messages(DEFAULT_LOCALE));
  const out: Localizations = {};
  for (const [locale, discordLocales] of Object.entries(DISCORD_LOCALES)) {
    const localized = text(messages(locale));
    if (localized === base) continue;
    for (const discordLocale of discordLocales ?? []) out[discordLocale] = localized;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The Discord definitions (`PUT /applications/:id/commands` bodies) of the given commands.
 * @example commandDefinitions(COMMANDS).map((d) => d.name) // ['paper', 'topic', 'digest', 'help']
 */
export function commandDefinitions(commands: readonly Command[]): CommandDefinition[] {
  return commands.map((command) => {
    const options: APIApplicationCommandOption[] = command.subcommands
      ? command.subcommands.map((sub) => {
          const subOptions = localizedOptions(command, sub);
          const descriptions = localizations((m) => commandDescription(command, m, sub).slice(0, MAX_DESCRIPTION_LENGTH));
          return {
            type: OPTION_TYPE.subcommand,
            name: sub.name,
            description: commandDescription(command, messages(DEFAULT_LOCALE), sub).slice(0, MAX_DESCRIPTION_LENGTH),
            ...(descriptions && { description_localizations: descriptions }),
            ...(subOptions.length > 0 && { options: subOptions }),
          } as APIApplicationCommandOption;
        })
      : localizedOptions(command);
    const descriptions = localizations((m) => commandDescription(command, m).slice(0, MAX_DESCRIPTION_LENGTH));
    return {
      type: 1,
      name: command.name,
      description: commandDescription(command, messages(DEFAULT_LOCALE)).slice(0, MAX_DESCRIPTION_LENGTH),
      ...(descriptions && { description_localizations: descriptions }),
      ...(command.permission === 'manage-channel' && { default_member_permissions: MANAGE_CHANNELS }),
      ...(options.length > 0 && { options }),
    };
  });
}

/** A command's (or subcommand's) options with their descriptions and choice names in every language. */
function localizedOptions(command: Command, sub?: Subcommand): APIApplicationCommandOption[] {
  const inLanguage = (m: Messages) => new Map(optionSpecs(command, m, sub).map((o) => [o.name, o.description]));
  const described = new Map<string, Map<string, string>>();
  const descriptionIn = (m: Messages, name: string) => {
    if (!described.has(m.locale)) described.set(m.locale, inLanguage(m));
    return described.get(m.locale)!.get(name) ?? name;
  };
  return optionSpecs(command, messages(DEFAULT_LOCALE), sub)
    .sort(requiredFirst)
    .map((spec) =>
      option(
        spec,
        localizations((m) => descriptionIn(m, spec.name)),
        (value) => localizations((m) => choiceName(m, command.name, sub?.name, spec.name, value) ?? value),
      ),
    );
}

/** A choice's name in a language (`digest.subscribe.days.weekdays`), if the catalog has one. */
function choiceName(m: Messages, command: string, sub: string | undefined, optionName: string, value: string): string | undefined {
  const key = `${command}.${sub ? `${sub}.` : ''}${optionName}.${value}`;
  return isMessageKey(key) ? m.t(key) : undefined;
}

/** Discord wants required options before optional ones. */
function requiredFirst(a: OptionSpec, b: OptionSpec): number {
  return Number(b.required) - Number(a.required);
}

function option(
  spec: OptionSpec,
  descriptions: Localizations | undefined,
  choiceLocalizations: (value: string) => Localizations | undefined,
): APIApplicationCommandOption {
  const base = {
    name: spec.name,
    description: spec.description,
    ...(descriptions && { description_localizations: descriptions }),
    ...(spec.required && { required: true }),
  };
  if (spec.type === 'boolean') return { type: OPTION_TYPE.boolean, ...base };
  if (spec.type === 'integer' || spec.type === 'number') {
    return {
      type: spec.type === 'integer' ? OPTION_TYPE.integer : OPTION_TYPE.number,
      ...base,
      ...(spec.autocomplete && { autocomplete: true }),
      ...(spec.min !== undefined && { min_value: spec.min }),
      ...(spec.max !== undefined && { max_value: spec.max }),
    } as APIApplicationCommandOption;
  }
  const choices =
    !spec.autocomplete && spec.choices
      ? spec.choices.slice(0, 25).map((c) => {
          const names = choiceLocalizations(c);
          return { name: c.slice(0, CHOICE_NAME_MAX), ...(names && { name_localizations: names }), value: c.slice(0, CHOICE_VALUE_MAX) };
        })
      : undefined;
  return {
    type: OPTION_TYPE.string,
    ...base,
    ...(spec.autocomplete && { autocomplete: true }),
    ...(choices && { choices }),
    ...(spec.minLength !== undefined && spec.minLength > 0 && { min_length: Math.min(spec.minLength, STRING_OPTION_MAX) }),
    ...(spec.maxLength !== undefined && { max_length: Math.min(spec.maxLength, STRING_OPTION_MAX) }),
  } as APIApplicationCommandOption;
}

// ── Differences ─────────────────────────────────────────────────────────────────────────────

export interface CommandDiff {
  added: string[];
  /** Commands in both, with the fields that differ (`description`, `options.query.max_length`). */
  changed: Array<{ name: string; fields: string[] }>;
  removed: string[];
  unchanged: string[];
}

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * What a bulk overwrite with `local` changes in `remote` (commands as Discord returns them:
 * with ids, versions, and defaults filled in), compared on what Paper Scout sets.
 * @example diffCommands([{ name: 'paper', description: 'Search' }], []) // { added: ['paper'], changed: [], removed: [], unchanged: [] }
 */
export function diffCommands(local: readonly CommandDefinition[], remote: readonly any[]): CommandDiff {
  const remoteByName = new Map(remote.map((c) => [String(c.name), c]));
  const diff: CommandDiff = { added: [], changed: [], removed: [], unchanged: [] };
  for (const def of local) {
    const before = remoteByName.get(def.name);
    if (!before) {
      diff.added.push(def.name);
      continue;
    }
    const fields = [
      ...(['type', 'description', 'description_localizations', 'default_member_permissions'] as const).filter((k) => !same(command(def)[k], command(before)[k])),
      ...optionChanges(def.options ?? [], before.options ?? [], 'options'),
    ];
    if (fields.length > 0) diff.changed.push({ name: def.name, fields });
    else diff.unchanged.push(def.name);
  }
  const names = new Set(local.map((d) => d.name));
  diff.removed = remote.map((c) => String(c.name)).filter((n) => !names.has(n));
  return diff;
}

const OPTION_FIELDS = ['type', 'description', 'description_localizations', 'required', 'autocomplete', 'min_length', 'max_length', 'min_value', 'max_value', 'choices'] as const;

function optionChanges(local: readonly any[], remote: readonly any[], path: string): string[] {
  const out: string[] = [];
  const remoteByName = new Map(remote.map((o) => [String(o.name), o]));
  for (const o of local) {
    const before = remoteByName.get(o.name);
    if (!before) {
      out.push(`${path}.${o.name} (added)`);
      continue;
    }
    const a = normalizedOption(o);
    const b = normalizedOption(before);
    for (const field of OPTION_FIELDS) if (!same(a[field], b[field])) out.push(`${path}.${o.name}.${field}`);
    out.push(...optionChanges(o.options ?? [], before.options ?? [], `${path}.${o.name}`));
  }
  const names = new Set(local.map((o) => o.name));
  out.push(...remote.filter((o) => !names.has(o.name)).map((o) => `${path}.${o.name} (removed)`));
  const common = (list: readonly any[]) => list.map((o) => o.name).filter((n) => remoteByName.has(n) && names.has(n));
  if (out.length === 0 && common(local).join() !== common(remote).join()) out.push(`${path} (order)`);
  return out;
}

function command(c: any): Record<string, unknown> {
  return {
    type: c.type ?? 1,
    description: c.description ?? '',
    description_localizations: sortedLocalizations(c.description_localizations),
    default_member_permissions: c.default_member_permissions ?? null,
  };
}

/** Localizations compared as Discord returns them (`with_localizations=true`): null or a map, in any key order. */
function sortedLocalizations(value: unknown): string {
  if (value === null || value === undefined || typeof value !== 'object') return '{}';
  return JSON.stringify(Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))));
}

function normalizedOption(o: any): Record<string, unknown> {
  return {
    type: o.type,
    description: o.description ?? '',
    description_localizations: sortedLocalizations(o.description_localizations),
    required: o.required === true,
    autocomplete: o.autocomplete === true,
    min_length: o.min_length ?? null,
    max_length: o.max_length ?? null,
    min_value: o.min_value ?? null,
    max_value: o.max_value ?? null,
    choices: (o.choices ?? []).map((c: any) => `${c.name}=${c.value}${sortedLocalizations(c.name_localizations)}`).join('|'),
  };
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The diff as lines for a terminal: `+ /paper (new)`, `~ /topic: description`, `- /old
 * (removed)`, `= /help`.
 */
export function formatDiff(diff: CommandDiff): string[] {
  return [
    ...diff.added.map((n) => `+ /${n} (new)`),
    ...diff.changed.map((c) => `~ /${c.name}: ${c.fields.join(', ')}`),
    ...diff.removed.map((n) => `- /${n} (removed)`),
    ...diff.unchanged.map((n) => `= /${n} (unchanged)`),
  ];
}
