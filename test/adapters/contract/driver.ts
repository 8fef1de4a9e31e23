/**
 * The face both chat platforms show the adapter contract suite, so that every scenario (places
 * where digests are refused, lookups, the member's language, hostile text) is written once and
 * run on each. A driver starts the real adapter (discord.js, Bolt) against its loopback fake,
 * sends what a member would (a command typed as text, a button pressed, a menu choice) as the
 * platform sends it, and reads back what the platform received as a {@link Seen}: the neutral
 * shape of a message, read strictly (a Discord heading is `**…**` on the first line, a Slack one
 * a header block). Exact JSON and features one platform lacks stay in its own tests.
 */
import type { App } from '../../../src/app.js';
import type { DigestSender } from '../../../src/digest/sender.js';

/** A button as shown. */
export interface Button {
  label: string;
  /** Shown but greyed out (Discord); Slack leaves such a button out instead. */
  disabled: boolean;
}

/** A part of a message under its own title: a paper card, "Similar papers", a list of topics. */
export interface Section {
  title: string | undefined;
  body: string;
  /** The small print under it: topics, links. */
  footer: string | undefined;
}

/** What the platform received, read back. */
export interface Seen {
  /** Shown only to whoever asked. */
  private: boolean;
  /** The message's heading (`Papers for “…”`), if it has one. */
  heading: string | undefined;
  /** The line under the heading (`12 papers · page 1 of 3 · …`). */
  subtitle: string | undefined;
  /** The small print above the sections (the subtitle among it): `Not in the library yet: …`. */
  notes: string[];
  /** What a plain message says: Discord's content, Slack's first section (its `text` is a summary for notifications). */
  said: string;
  /** The message's own text: Discord's content, Slack's `text`. */
  text: string;
  /** Everything the message shows, in the platform's markup, one part a line. */
  shown: string;
  sections: Section[];
  buttons: Button[];
  menu: { placeholder: string; options: string[] } | undefined;
  /** The message as the platform received it. */
  raw: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Who does something, and where. */
export interface Who {
  /** The member's language as the platform reports it (`zh-CN`, `en-US`, `fr`). */
  locale?: string;
  /** May set up digests (Discord: Manage Channels; Slack: a workspace admin). */
  manager?: boolean;
  /** Where; a channel where the bot may post unless given. */
  place?: Place;
  /** Which member, by number (the fixture's member unless given): another number is another person. */
  member?: number;
}

/** A file the bot posted: a Discord attachment, a Slack upload. */
export interface PostedFile {
  name: string;
  content: string;
  /** The conversation it is in: the channel's id, or the member's DM with the bot. */
  channel: string;
}

/** A conversation on a platform, made by its driver. */
export interface Place {
  /** The platform's id of the conversation (what subscriptions are stored under). */
  channel: string;
}

/** A command sent, its acknowledgement in, its answer maybe still to come. */
export interface Sent {
  /** The platform was told, at once and without a message, that an answer will follow. */
  deferred: boolean;
  answer(): Promise<Seen>;
}

export interface Session {
  /** A slash command typed as text (`/digest subscribe topic:llm time:09:00`), and its answer. */
  command(typed: string, who?: Who): Promise<Seen>;
  /** The same, resolving once the platform has its acknowledgement. */
  send(typed: string, who?: Who): Promise<Sent>;
  /** Presses the button labelled `label` on a message the bot sent. */
  press(on: Seen, label: string, who?: Who): Promise<Seen>;
  /**
   * Presses the button labelled `label` of the paper card numbered `position` (Discord numbers
   * card buttons, "Save 3"; Slack puts each beside its card).
   */
  pressOnCard(on: Seen, position: number, label: string, who?: Who): Promise<Seen>;
  /** A member posts `text` in a channel (the bot reads it where the platform lets it). */
  post(place: Place, text: string, who?: Who): Promise<void>;
  /** Files the bot posted, oldest first. */
  files(): PostedFile[];
  /** Chooses the option labelled `option` (or the n-th) in a message's menu. */
  choose(on: Seen, option: string | number, who?: Who): Promise<Seen>;
  /** A digest sender as `digest run-due` makes one, posting to the fake. */
  sender(): DigestSender;
  /** The bot's messages in a channel, oldest first. */
  posted(place: Place): Seen[];
  /** Every message the platform received broke none of its limits and pings no one. */
  expectWellBehaved(): void;
  stop(): Promise<void>;
}

export interface Driver {
  name: 'discord' | 'slack';
  /** Shows a button it cannot use greyed out (Discord), rather than leaving it out (Slack). */
  showsDisabledButtons: boolean;
  places: {
    dm: Place;
    groupDm: Place;
    /** A channel of its own for each `n`, where the bot may post. */
    channel(n: number): Place;
  };
  /** Places, besides DMs, where a digest could never be posted on this platform, and what the bot says there. */
  refusals: Array<[name: string, place: Place, text: string]>;
  /** Markup such as `<!channel>` or `<@123>` in a paper, as the platform shows it: literally, not as a mention. */
  literal(markup: string): string;
  /** How much room a message takes, against the platform's budget (Slack: its blocks' JSON; Discord: its embeds' characters). */
  size(seen: Seen): number;
  /** A size that only a message pressed against the budget reaches. */
  nearBudget: number;
  /**
   * Starts the adapter for `app`; `archive`: where the platform makes it a setting, read the
   * channels' messages for their paper links (Discord's DISCORD_MESSAGE_CONTENT=on).
   */
  start(app: App, options?: { deferAfterMs?: number; archive?: boolean }): Promise<Session>;
}

/**
 * The command name and the rest of a typed command.
 * @example splitTyped('/digest subscribe llm') // { name: 'digest', text: 'subscribe llm' }
 */
export function splitTyped(typed: string): { name: string; text: string } {
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(typed);
  if (!match) throw new Error(`not a command: ${typed}`);
  return { name: match[1]!, text: match[2]! };
}

/** The index of the option labelled `option` (or `option` itself), throwing if there is none. */
export function optionIndex(menu: Seen['menu'], option: string | number): number {
  if (!menu) throw new Error('no menu in the message');
  const at = typeof option === 'number' ? option : menu.options.indexOf(option);
  if (at < 0 || at >= menu.options.length) throw new Error(`no option ${option} in ${JSON.stringify(menu.options)}`);
  return at;
}
