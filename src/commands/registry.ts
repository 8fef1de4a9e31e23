/**
 * The command registry: a static list (no directory scanning) from which every adapter derives
 * its commands, and the dispatcher that runs commands, buttons, autocomplete and link unfurls
 * with one error policy: a {@link UserError} goes back to the user privately; anything else is
 * logged with a reference the user is given. Each is reported to the observer (metrics).
 */
import { z } from 'zod';
import { UserError, apology, errorReference } from '../errors.js';
import { isMessageKey, messages, msg, type Messages, type MessageKey } from '../i18n/index.js';
import { silentObserver, type CommandEvent, type CommandOutcome, type Observer } from '../observer.js';
import { FORM_VERB, formHandle, messageReply, parseAction, type Reply } from '../reply.js';
import { isStoreBusy, isStoreUnavailable } from '../store/errors.js';
import { createHelpCommand } from './help.js';
import { digestCommand } from './digest.js';
import { libraryCommand } from './library.js';
import { paperCommand } from './paper.js';
import { topicCommand } from './topic.js';
import { MAX_CHOICES, MAX_DESCRIPTION_LENGTH, commandKey, type Choice, type Command, type CommandContext, type Subcommand } from './types.js';

/** What a button or menu choice runs: a command's handler of one verb. */
type ActionHandler = NonNullable<Command['actions']>[string];

/** A command's form (see `Command.form`) in a language, for a platform's dialog. */
export interface FormSpec {
  /** What the dialog and the buttons opening it carry (`paper:form`). */
  handle: string;
  title: string;
  /** Above the text box. */
  label: string;
  /** In the empty text box. */
  placeholder: string;
}

export class CommandRegistry {
  private readonly byName = new Map<string, Command>();
  /**
   * Each command's action handlers by verb. Handles come from requests, so they are looked up
   * in Maps only: on a plain object `paper:constructor` would find what every object inherits.
   */
  private readonly actions = new Map<string, ReadonlyMap<string, ActionHandler>>();

  /** `observer` hears of every command's outcome and duration (metrics). */
  constructor(
    commands: readonly Command[],
    private readonly observer: Observer = silentObserver,
  ) {
    for (const command of commands) {
      if (this.byName.has(command.name)) throw new Error(`CommandRegistry: duplicate command name "${command.name}"`);
      if (!/^[a-z][a-z0-9-]{0,31}$/.test(command.name)) throw new Error(`CommandRegistry: "${command.name}" is not a valid command name`);
      if (command.actions && Object.hasOwn(command.actions, FORM_VERB)) throw new Error(`CommandRegistry: "${command.name}" has an action named "${FORM_VERB}", the verb of its form's handle`);
      if (command.form && !Object.hasOwn(command.options.shape, command.form.option)) throw new Error(`CommandRegistry: the form of "${command.name}" fills "${command.form.option}", which is none of its options`);
      this.byName.set(command.name, command);
      this.actions.set(command.name, new Map(Object.entries(command.actions ?? {})));
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
      if (!sub) throw noSubcommand(command, subcommand);
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
      if (command.subcommands && text.trim() !== '' && Object.keys(command.options.shape).length === 0) throw noSubcommand(command, first);
      return command.run(ctx, parseOptions(command.options, command.fromText(text)));
    });
  }

  /**
   * Handles a button or menu action handle such as `paper:page:k3f9x2:2`, as the platform
   * delivered it: anything else (no text, an unknown command or verb) is a button that no longer
   * does anything, which the user is told.
   */
  async act(ctx: CommandContext, handle: unknown): Promise<Reply> {
    const parsed = parseAction(handle);
    const shown = typeof handle === 'string' ? handle : `(${handle === null ? 'null' : typeof handle})`;
    return this.guard(ctx, { kind: 'action', command: parsed === undefined ? 'unknown' : this.label(parsed.command) }, { action: shown }, async () => {
      const handler = parsed && this.actions.get(parsed.command)?.get(parsed.verb);
      if (!parsed || !handler) throw new UserError('error.staleButton');
      return handler(ctx, parsed.args);
    });
  }

  /**
   * The form of the command `name`, which its bare invocation opens where the platform has
   * dialogs, in a language; undefined when it has none.
   * @example registry.formOf('paper', ctx.i18n)?.handle // 'paper:form'
   */
  formOf(name: string, m: Messages): FormSpec | undefined {
    const command = this.get(name);
    if (!command?.form) return undefined;
    const words = (what: string) => m.t(catalogKey(commandKey(command.name, undefined, `form.${what}`)));
    return { handle: formHandle(command.name), title: words('title'), label: words('label'), placeholder: words('placeholder') };
  }

  /**
   * The form a button's or a dialog's handle names (`paper:form`), as the platform delivered it;
   * undefined for anything else (an action handle, no text at all).
   */
  formAt(handle: unknown, m: Messages): FormSpec | undefined {
    const command = this.formCommand(handle);
    return command && this.formOf(command.name, m);
  }

  /**
   * Runs a submitted form: its command, with the text as the option the form fills (anything
   * but text is an empty one). A handle that names no form is a button that no longer does
   * anything here.
   * @example await registry.submit(ctx, 'paper:form', pastedAbstract)
   */
  async submit(ctx: CommandContext, handle: unknown, text: unknown): Promise<Reply> {
    const command = this.formCommand(handle);
    if (!command?.form) {
      return this.guard(ctx, { kind: 'action', command: 'unknown' }, { form: typeof handle === 'string' ? handle.slice(0, 100) : typeof handle }, () => Promise.reject(new UserError('error.staleButton')));
    }
    return this.run(ctx, command.name, { [command.form.option]: typeof text === 'string' ? text : '' });
  }

  /**
   * Answers a link shared in a conversation (a Slack unfurl) through the command that unfurls
   * links (`/paper`: the card of the paper the link names, looked up when the library lacks
   * it), under the same error policy as commands; undefined when the link names nothing.
   * @example await registry.unfurl(ctx, 'https://arxiv.org/abs/1706.03762') // a reply holding the paper's card
   */
  async unfurl(ctx: CommandContext, link: string): Promise<Reply | undefined> {
    const command = [...this.byName.values()].find((c) => c.unfurl !== undefined);
    if (!command) return undefined;
    return this.guard(ctx, { kind: 'unfurl', command: command.name }, { unfurl: link.slice(0, 200) }, async () => command.unfurl?.(ctx, link));
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

  /** The command with a form that a form handle (`paper:form`) names. */
  private formCommand(handle: unknown): Command | undefined {
    const parsed = parseAction(handle);
    const command = parsed && parsed.verb === FORM_VERB && parsed.args.length === 0 ? this.get(parsed.command) : undefined;
    return command?.form ? command : undefined;
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
      throw new UserError('error.noCommand', { name: name.slice(0, 40), commands: this.commands.map((c) => `/${c.name}`).join(', ') });
    }
    return command;
  }

  /** Runs `fn`; every reply it gives, an error's too, is in the context's language and says so. */
  private async guard<R extends Reply | undefined>(ctx: CommandContext, label: Pick<CommandEvent, 'kind' | 'command'>, what: Record<string, string>, fn: () => Promise<R>): Promise<R | Reply> {
    const started = performance.now();
    let outcome: CommandOutcome = 'ok';
    const locale = ctx.i18n.locale;
    try {
      // Papers another process or instance added (a lookup, a sync, a small import) are
      // searchable by the next command; a large import's catch-up goes on behind the answers.
      if (ctx.library.ready) {
        await ctx.library.catchUpForCommand().catch((err: unknown) => ctx.log.warn({ err }, 'search index catch-up failed; answering from the index as it is'));
      }
      const reply = await fn();
      return reply && { locale, ...reply };
    } catch (err) {
      if (err instanceof UserError) {
        outcome = 'user_error';
        return messageReply(ctx.i18n.text(err.reason), { ephemeral: true, locale });
      }
      if (isStoreBusy(err)) {
        outcome = 'busy';
        ctx.log.warn({ platform: ctx.platform, user: ctx.user.id, ...what }, 'command could not write: another process holds the database write lock');
        return messageReply(ctx.i18n.t('error.busy'), { ephemeral: true, locale });
      }
      if (isStoreUnavailable(err)) {
        outcome = 'busy';
        ctx.log.warn({ platform: ctx.platform, user: ctx.user.id, ...what, reason: (err as Error).message }, 'command could not be answered: the store is unreachable');
        return messageReply(ctx.i18n.t('error.storeUnavailable'), { ephemeral: true, locale });
      }
      outcome = 'error';
      const reference = errorReference();
      ctx.log.error({ err, reference, platform: ctx.platform, user: ctx.user.id, ...what }, 'command failed');
      return messageReply(apology(reference, ctx.i18n), { ephemeral: true, locale });
    } finally {
      this.report(ctx, label, outcome, started);
    }
  }
}

function noSubcommand(command: Command, name: string): UserError {
  const subcommands = (command.subcommands ?? []).map((s) => `/${command.name} ${s.name}`).join(', ');
  return new UserError('error.noSubcommand', { command: command.name, name: name.slice(0, 40), subcommands });
}

/**
 * Options validated by their zod schema. A schema's own messages are catalog keys
 * (`.min(1, 'paper.queryEmpty')`); zod's generic ones become the catalog's generic option errors.
 */
function parseOptions(schema: Command['options'], raw: unknown): Record<string, unknown> {
  const parsed = schema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const reasons = parsed.error.issues.map((issue) => {
    const bounds = issue as { maximum?: unknown; minimum?: unknown; values?: unknown[] };
    const max = typeof bounds.maximum === 'number' || typeof bounds.maximum === 'bigint' ? Number(bounds.maximum) : undefined;
    const min = typeof bounds.minimum === 'number' || typeof bounds.minimum === 'bigint' ? Number(bounds.minimum) : undefined;
    const values = { option: issue.path.map(String).join('.') || 'options', ...(max !== undefined && { max }), ...(min !== undefined && { min }) };
    if (isMessageKey(issue.message)) return msg(issue.message, values);
    if (issue.code === 'too_big' && max !== undefined) return msg('error.option.tooLong', values);
    if (issue.code === 'too_small') return msg('error.option.tooShort', values);
    if (issue.code === 'invalid_value' && Array.isArray(bounds.values)) return msg('error.option.choice', { ...values, choices: bounds.values.join(', ') });
    return msg('error.option.invalid', values);
  });
  throw new UserError(reasons.length === 1 ? reasons[0]! : msg('error.option.several', { reasons: { items: reasons, type: 'sentences' } }));
}

/**
 * A command's description in a language.
 * @example commandDescription(paperCommand, messages('en')) // 'Search papers by title, author or keywords'
 */
export function commandDescription(command: Pick<Command, 'name'>, m: Messages, sub?: Pick<Subcommand, 'name'>): string {
  return m.t(catalogKey(commandKey(command.name, sub?.name, 'description')));
}

/** A command's example invocations for help texts, in a language. */
export function commandExamples(command: Pick<Command, 'name'>, m: Messages): string {
  return m.t(catalogKey(commandKey(command.name, undefined, 'examples')));
}

function catalogKey(key: string): MessageKey {
  if (!isMessageKey(key)) throw new Error(`The message catalog has no "${key}": add it to src/i18n/catalog/en.ts and every other catalog`);
  return key;
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
 * Reads a command's (or a subcommand's) zod options into platform-neutral specs, described in
 * a language (default English).
 * @example optionSpecs(paperCommand)[0] // { name: 'query', type: 'string', required: true, autocomplete: true, ... }
 */
export function optionSpecs(command: Pick<Command, 'name' | 'options'>, m: Messages = messages('en'), sub?: Pick<Subcommand, 'name' | 'options'>): OptionSpec[] {
  const options = sub ?? command;
  const schema = z.toJSONSchema(options.options, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(schema.properties ?? {}).map(([name, p]) => {
    const type = p.type === 'integer' || p.type === 'number' || p.type === 'boolean' ? p.type : 'string';
    return {
      name,
      description: m.t(catalogKey(commandKey(command.name, sub?.name, `option.${name}`))).slice(0, MAX_DESCRIPTION_LENGTH),
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

const commands: Command[] = [paperCommand, topicCommand, digestCommand, libraryCommand];
commands.push(createHelpCommand(() => commands, (c, m) => ({ description: commandDescription(c, m), examples: commandExamples(c, m) })));

/** Every command Paper Scout offers, in the order help lists them. */
export const COMMANDS: readonly Command[] = commands;

/** The registry of {@link COMMANDS}, reporting each command's outcome to `observer`. */
export function createRegistry(observer: Observer = silentObserver): CommandRegistry {
  return new CommandRegistry(COMMANDS, observer);
}
