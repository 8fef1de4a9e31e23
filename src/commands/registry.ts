/**
 * The command registry: a static list (no directory scanning) from which every adapter derives
 * its commands, and the dispatcher that runs commands, buttons and autocomplete with one error
 * policy: a {@link UserError} goes back to the user privately; anything else is logged with a
 * reference the user is given.
 */
import { z } from 'zod';
import { UserError, apology, errorReference } from '../errors.js';
import { silentObserver, type CommandEvent, type CommandOutcome, type Observer } from '../observer.js';
import { messageReply, parseAction, type Reply } from '../reply.js';
import { createHelpCommand } from './help.js';
import { digestCommand } from './digest.js';
import { paperCommand } from './paper.js';
import { topicCommand } from './topic.js';
import { MAX_CHOICES, type Choice, type Command, type CommandContext } from './types.js';

export class CommandRegistry {
  private readonly byName = new Map<string, Command>();

  /** `observer` hears of every command's outcome and duration (metrics). */
  constructor(
    commands: readonly Command[],
    private readonly observer: Observer = silentObserver,
  ) {
    for (const command of commands) {
      if (this.byName.has(command.name)) throw new Error(`CommandRegistry: duplicate command name "${command.name}"`);
      if (!/^[a-z][a-z0-9-]{0,31}$/.test(command.name)) throw new Error(`CommandRegistry: "${command.name}" is not a valid command name`);
      this.byName.set(command.name, command);
    }
  }

  get commands(): readonly Command[] {
    return [...this.byName.values()];
  }

  get(name: string): Command | undefined {
    return this.byName.get(name.toLowerCase());
  }

  /**
   * Runs a command with options as the platform delivered them (already split by option).
   * @example await registry.run(ctx, 'paper', { query: 'diffusion' })
   */
  async run(ctx: CommandContext, name: string, rawOptions: unknown, subcommand?: string): Promise<Reply> {
    const label = { kind: 'command', command: this.label(name) } as const;
    return this.guard(ctx, label, { command: subcommand ? `${name} ${subcommand}` : name }, async () => {
      const command = this.require(name);
      if (subcommand === undefined) return command.run(ctx, parseOptions(command.options, rawOptions));
      const sub = command.subcommands?.find((s) => s.name === subcommand);
      if (!sub) throw new UserError(`/${command.name} has no "${subcommand.slice(0, 40)}". Try ${subcommandList(command)}.`);
      return sub.run(ctx, parseOptions(sub.options, rawOptions));
    });
  }

  /**
   * Runs a command typed as text ("/paper diffusion models" → `paper`, `diffusion models`;
   * "/digest subscribe topic:llm" → `digest`, subcommand `subscribe`, `topic:llm`).
   */
  async runText(ctx: CommandContext, name: string, text: string): Promise<Reply> {
    return this.guard(ctx, { kind: 'command', command: this.label(name) }, { command: name }, async () => {
      const command = this.require(name);
      const [first = '', ...rest] = text.trim().split(/\s+/);
      const sub = command.subcommands?.find((s) => s.name === first.toLowerCase());
      if (sub) return sub.run(ctx, parseOptions(sub.options, sub.fromText(rest.join(' '))));
      if (command.subcommands && text.trim() !== '' && Object.keys(command.options.shape).length === 0) {
        throw new UserError(`/${command.name} has no "${first.slice(0, 40)}". Try ${subcommandList(command)}.`);
      }
      return command.run(ctx, parseOptions(command.options, command.fromText(text)));
    });
  }

  /** Handles a button or menu action handle such as `paper:page:k3f9x2:2`. */
  async act(ctx: CommandContext, handle: string): Promise<Reply> {
    const owner = parseAction(handle)?.command;
    return this.guard(ctx, { kind: 'action', command: owner === undefined ? 'unknown' : this.label(owner) }, { action: handle }, async () => {
      const parsed = parseAction(handle);
      const handler = parsed && this.byName.get(parsed.command)?.actions?.[parsed.verb];
      if (!parsed || !handler) throw new UserError('That button no longer does anything here. Run the command again.');
      return handler(ctx, parsed.args);
    });
  }

  /** Autocomplete suggestions; never throws (a failing autocomplete shows no choices). */
  autocomplete(ctx: CommandContext, name: string, option: string, value: string): Choice[] {
    const command = this.get(name);
    if (!command?.autocomplete) return [];
    const started = performance.now();
    let outcome: CommandOutcome = 'ok';
    try {
      return command.autocomplete(ctx, option, value.slice(0, 200)).slice(0, MAX_CHOICES);
    } catch (err) {
      outcome = 'error';
      ctx.log.error({ err, command: name, option }, 'autocomplete failed');
      return [];
    } finally {
      this.report(ctx, { kind: 'autocomplete', command: command.name }, outcome, started);
    }
  }

  /** A command name fit for a metric label: a registered command's, else `unknown` (user input is unbounded). */
  private label(name: string): string {
    return this.get(name)?.name ?? 'unknown';
  }

  private report(ctx: CommandContext, label: Pick<CommandEvent, 'kind' | 'command'>, outcome: CommandOutcome, started: number): void {
    try {
      this.observer.command({ platform: ctx.platform, ...label, outcome, seconds: (performance.now() - started) / 1000 });
    } catch (err) {
      ctx.log.warn({ err }, 'the command observer failed');
    }
  }

  private require(name: string): Command {
    const command = this.get(name);
    if (!command) {
      throw new UserError(`There is no /${name.slice(0, 40)} command. Commands: ${this.commands.map((c) => `/${c.name}`).join(', ')}.`);
    }
    return command;
  }

  private async guard(ctx: CommandContext, label: Pick<CommandEvent, 'kind' | 'command'>, what: Record<string, string>, fn: () => Promise<Reply>): Promise<Reply> {
    const started = performance.now();
    let outcome: CommandOutcome = 'ok';
    try {
      return await fn();
    } catch (err) {
      if (err instanceof UserError) {
        outcome = 'user_error';
        return messageReply(err.message, { ephemeral: true });
      }
      outcome = 'error';
      const reference = errorReference();
      ctx.log.error({ err, reference, platform: ctx.platform, user: ctx.user.id, ...what }, 'command failed');
      return messageReply(apology(reference), { ephemeral: true });
    } finally {
      this.report(ctx, label, outcome, started);
    }
  }
}

function subcommandList(command: Command): string {
  return (command.subcommands ?? []).map((s) => `/${command.name} ${s.name}`).join(', ');
}

function parseOptions(schema: Command['options'], raw: unknown): Record<string, unknown> {
  const parsed = schema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data as Record<string, unknown>;
  throw new UserError(parsed.error.issues.map((i) => i.message).join(' '));
}

/** The option list of a command, for platform definitions: name, description, type, limits. */
export interface OptionSpec {
  name: string;
  description: string;
  type: 'string' | 'integer' | 'number' | 'boolean';
  required: boolean;
  autocomplete: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  choices?: string[];
}

/**
 * Reads a command's zod options into platform-neutral specs.
 * @example optionSpecs(paperCommand)[0] // { name: 'query', type: 'string', required: true, autocomplete: true, ... }
 */
export function optionSpecs(command: Pick<Command, 'options'>): OptionSpec[] {
  const schema = z.toJSONSchema(command.options, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(schema.properties ?? {}).map(([name, p]) => {
    const type = p.type === 'integer' || p.type === 'number' || p.type === 'boolean' ? p.type : 'string';
    return {
      name,
      description: String(p.description ?? name).slice(0, 100),
      type,
      required: schema.required?.includes(name) ?? false,
      autocomplete: p.autocomplete === true,
      ...(typeof p.minLength === 'number' && { minLength: p.minLength }),
      ...(typeof p.maxLength === 'number' && { maxLength: p.maxLength }),
      ...(typeof p.minimum === 'number' && { min: p.minimum }),
      ...(typeof p.maximum === 'number' && { max: p.maximum }),
      ...(Array.isArray(p.enum) && { choices: p.enum.map(String) }),
    } satisfies OptionSpec;
  });
}

const commands: Command[] = [paperCommand, topicCommand, digestCommand];
commands.push(createHelpCommand(() => commands));

/** Every command Paper Scout offers, in the order help lists them. */
export const COMMANDS: readonly Command[] = commands;

/** The registry of {@link COMMANDS}, reporting each command's outcome to `observer`. */
export function createRegistry(observer: Observer = silentObserver): CommandRegistry {
  return new CommandRegistry(COMMANDS, observer);
}
