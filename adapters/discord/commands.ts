/**
 * Discord command definitions, derived from the core's command registry (names, descriptions,
 * zod options), and the difference between them and what Discord has registered, so that the
 * deploy script can say what it changes. Pure.
 */
import type { APIApplicationCommandOption, RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import { optionSpecs, type OptionSpec } from '../../src/commands/registry.js';
import type { Command } from '../../src/commands/types.js';

export type CommandDefinition = RESTPostAPIChatInputApplicationCommandsJSONBody;

/** Discord's option types. */
const OPTION_TYPE = { subcommand: 1, string: 3, integer: 4, boolean: 5, number: 10 } as const;
/** Discord's bounds on string option lengths. */
const OPTION_LENGTH_MAX = 6000;
/** The Manage Channels permission bit, for commands that need it. */
const MANAGE_CHANNELS = '16';

/**
 * The Discord definitions (`PUT /applications/:id/commands` bodies) of the given commands.
 * @example commandDefinitions(COMMANDS).map((d) => d.name) // ['paper', 'topic', 'digest', 'help']
 */
export function commandDefinitions(commands: readonly Command[]): CommandDefinition[] {
  return commands.map((command) => {
    const options: APIApplicationCommandOption[] = command.subcommands
      ? command.subcommands.map((sub) => {
          const subOptions = optionSpecs(sub).sort(requiredFirst).map(option);
          return {
            type: OPTION_TYPE.subcommand,
            name: sub.name,
            description: sub.description.slice(0, 100),
            ...(subOptions.length > 0 && { options: subOptions }),
          } as APIApplicationCommandOption;
        })
      : optionSpecs(command).sort(requiredFirst).map(option);
    return {
      type: 1,
      name: command.name,
      description: command.description.slice(0, 100),
      ...(command.permission === 'manage-channel' && { default_member_permissions: MANAGE_CHANNELS }),
      ...(options.length > 0 && { options }),
    };
  });
}

/** Discord wants required options before optional ones. */
function requiredFirst(a: OptionSpec, b: OptionSpec): number {
  return Number(b.required) - Number(a.required);
}

function option(spec: OptionSpec): APIApplicationCommandOption {
  const base = { name: spec.name, description: spec.description, ...(spec.required && { required: true }) };
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
  const choices = !spec.autocomplete && spec.choices ? spec.choices.slice(0, 25).map((c) => ({ name: c.slice(0, 100), value: c.slice(0, 100) })) : undefined;
  return {
    type: OPTION_TYPE.string,
    ...base,
    ...(spec.autocomplete && { autocomplete: true }),
    ...(choices && { choices }),
    ...(spec.minLength !== undefined && spec.minLength > 0 && { min_length: Math.min(spec.minLength, OPTION_LENGTH_MAX) }),
    ...(spec.maxLength !== undefined && { max_length: Math.min(spec.maxLength, OPTION_LENGTH_MAX) }),
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
      ...(['type', 'description', 'default_member_permissions'] as const).filter((k) => !same(command(def)[k], command(before)[k])),
      ...optionChanges(def.options ?? [], before.options ?? [], 'options'),
    ];
    if (fields.length > 0) diff.changed.push({ name: def.name, fields });
    else diff.unchanged.push(def.name);
  }
  const names = new Set(local.map((d) => d.name));
  diff.removed = remote.map((c) => String(c.name)).filter((n) => !names.has(n));
  return diff;
}

const OPTION_FIELDS = ['type', 'description', 'required', 'autocomplete', 'min_length', 'max_length', 'min_value', 'max_value', 'choices'] as const;

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
  return { type: c.type ?? 1, description: c.description ?? '', default_member_permissions: c.default_member_permissions ?? null };
}

function normalizedOption(o: any): Record<string, unknown> {
  return {
    type: o.type,
    description: o.description ?? '',
    required: o.required === true,
    autocomplete: o.autocomplete === true,
    min_length: o.min_length ?? null,
    max_length: o.max_length ?? null,
    min_value: o.min_value ?? null,
    max_value: o.max_value ?? null,
    choices: (o.choices ?? []).map((c: any) => `${c.name}=${c.value}`).join('|'),
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
