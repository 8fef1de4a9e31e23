/**
 * Commands as data: each command module exports one {@link Command}, and the registry turns the
 * list into Discord definitions, Slack handlers, the terminal's help and the deploy script.
 */
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Library } from '../library.js';
import type { Reply } from '../reply.js';
import type { StateStore } from '../store/states.js';
import type { ReadingListStore } from '../store/readingLists.js';
import type { RatingStore } from '../store/ratings.js';
import type { DigestStore } from '../store/digests.js';
import type { PaperLookup } from '../sources/lookup.js';
import type { Messages } from '../i18n/index.js';
import type { Platform } from '../platform.js';

export type { Platform };

/**
 * What kind of conversation a command runs in: a channel of a server or workspace (threads
 * included), a direct message between two people, or a group conversation outside any channel.
 */
export type ChannelKind = 'channel' | 'dm' | 'group-dm';

/**
 * What the bot itself may do where a command runs, as far as the platform says. An unset field is
 * unknown and never held against the bot.
 */
export interface BotAccess {
  /**
   * False where the app answers but its bot was never added to the server: a Discord app a user
   * installed on their own account, used in someone else's server.
   */
  inServer?: boolean;
  /** The bot's own permissions in this channel (Discord's `app_permissions`). */
  canView?: boolean;
  canSend?: boolean;
  /** Rich messages (Discord embeds, which digests are). */
  canEmbed?: boolean;
  /**
   * Reading the channel's past messages (Discord's Read Message History): how a digest message
   * whose post got no answer is looked for before it is posted again.
   */
  canReadHistory?: boolean;
}

/** What a command knows about where it runs and who asked. */
export interface CommandContext {
  library: Library;
  states: StateStore;
  platform: Platform;
  user: { id: string; name?: string; /** IANA zone, where the platform gives one (Slack). */ timezone?: string };
  /** The server or workspace (Discord guild, Slack team), with its default locale where the platform has one (Discord). */
  workspace?: { id: string; locale?: string };
  /** What the platform says this member may do in the channel. */
  member?: {
    /** Discord: the Manage Channels permission in this channel. */
    canManageChannel?: boolean;
    /** Slack: a workspace admin or owner. */
    isAdmin?: boolean;
  };
  /** Digest subscriptions and their ledger. */
  digests: DigestStore;
  /** Members' and channels' reading lists and channels' archives. */
  readingLists: ReadingListStore;
  /** Members' own 👍/👎 and followed authors (private to each member). */
  ratings: RatingStore;
  /** The user's locale as the platform reports it (e.g. `en-US`, `zh-CN`). */
  locale?: string;
  /** Messages in the language of the reply: the user's locale, resolved. */
  i18n: Messages;
  channel?: {
    id: string;
    name?: string;
    /** Unset when the platform does not say. */
    kind?: ChannelKind;
  };
  /** What the bot may do here; unset when the platform does not say. */
  bot?: BotAccess;
  now: () => Date;
  log: Logger;
  /** Fetches papers the library lacks (arXiv, OpenAlex, OpenReview); absent with LOOKUP_UPSTREAM=off. */
  lookup?: PaperLookup;
}

/** An autocomplete suggestion: shown as `name`, submitted as `value` (both at most 100 characters). */
export interface Choice {
  name: string;
  value: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OptionsSchema = z.ZodObject<any>;

export interface Command<S extends OptionsSchema = OptionsSchema> {
  /** Lowercase, as typed after the slash (the same in every language). */
  name: string;
  /**
   * The options, each with `.describe()`; `.meta({ autocomplete: true })` marks options with
   * suggestions. The first option takes the text of a plain-text invocation.
   */
  options: S;
  /** Reads a plain-text invocation (Slack, terminal: everything after `/name `) into options. */
  fromText(text: string): z.input<S>;
  run(ctx: CommandContext, args: z.output<S>): Reply | Promise<Reply>;
  /** Suggestions for an option as the user types it. */
  autocomplete?(ctx: CommandContext, option: string, value: string): Choice[];
  /** Subcommands (`/digest subscribe …`); the command's own `run` then answers the bare command. */
  subcommands?: Subcommand[];
  /** Who may use it: `manage-channel` hides it from others where the platform can (Discord). */
  permission?: 'manage-channel';
  /**
   * Handlers of this command's buttons and menus, by verb (`paper:page:…` → `page`). The registry
   * reads them into a Map once: a verb is request text, never looked up on this object.
   */
  actions?: Record<string, (ctx: CommandContext, args: string[]) => Reply | Promise<Reply>>;
  /**
   * One long text the command can take from a dialog where the platform has them (Discord's
   * modals): a slash option is one line, too narrow for a pasted abstract. There the bare
   * command opens it, as do buttons naming the command in `form`; the text submitted runs the
   * command with it as the option `option`.
   */
  form?: CommandForm;
  /**
   * Answers a link shared in a conversation (a Slack unfurl) with a compact reply (`/paper`: the
   * card of the paper it names), or undefined when the link is none of this command's business.
   */
  unfurl?(ctx: CommandContext, link: string): Promise<Reply | undefined>;
}

/**
 * A command's form: the option its text fills. Its words are the catalog's `<command>.form.title`,
 * `.label` and `.placeholder`, and `.button` for the buttons that open it.
 */
export interface CommandForm {
  option: string;
}

export interface Subcommand<S extends OptionsSchema = OptionsSchema> {
  name: string;
  options: S;
  /**
   * `manage-channel`: it changes what the channel has set up for everyone and checks who may
   * (permissions.ts); the platform cannot hide one subcommand, but adapters ask afresh for the
   * member's role (Slack's admins).
   */
  permission?: 'manage-channel';
  /** Reads the text after the subcommand's name into options. */
  fromText(text: string): z.input<S>;
  run(ctx: CommandContext, args: z.output<S>): Reply | Promise<Reply>;
}

/** Declares a subcommand (see {@link defineCommand}). */
export function defineSubcommand<S extends OptionsSchema>(sub: Subcommand<S>): Subcommand {
  return sub as unknown as Subcommand;
}

/**
 * A command's words live in the catalog, keyed by its name: `<command>.description`,
 * `<command>.examples` (help), `<command>.option.<option>`, and for a subcommand
 * `<command>.<sub>.description` and `<command>.<sub>.option.<option>` (each description at most
 * 100 characters, Discord's limit).
 */
export function commandKey(command: string, sub: string | undefined, what: string): string {
  return sub === undefined ? `${command}.${what}` : `${command}.${sub}.${what}`;
}

/** Discord's limits on command names, descriptions and choices. */
export const MAX_DESCRIPTION_LENGTH = 100;
export const MAX_CHOICES = 25;
export const MAX_CHOICE_LENGTH = 100;

/**
 * Declares a command: checks it against its own options schema, then erases the schema type so
 * commands with different options fit in one registry.
 * @example export const pingCommand = defineCommand({ name: 'ping', options: z.object({}), ... });
 */
export function defineCommand<S extends OptionsSchema>(command: Command<S>): Command {
  return command as unknown as Command;
}
