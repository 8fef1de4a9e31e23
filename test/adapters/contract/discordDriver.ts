/**
 * The contract suite's Discord: the adapter started for real (discord.js over the loopback
 * gateway and REST), commands typed as text turned into the INTERACTION_CREATE Discord would
 * send for them (options split and typed by the command's own definitions), and the callbacks,
 * edits and channel posts discord.js makes read back.
 */
import { expect, vi } from 'vitest';
import { createDiscordSender } from '../../../adapters/discord/digestSender.js';
import { optionSpecs } from '../../../src/commands/registry.js';
import type { App } from '../../../src/app.js';
import { expectWellBehaved, messageOf, startBot } from '../discord/harness.js';
import { botMessage, buttonClick, fromFixture, menuChoice, slashCommand } from '../discord/payloads.js';
import { optionIndex, splitTyped, type Driver, type Place, type Seen, type Session, type Who } from './driver.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** Manage Channels on top of the chat-input fixture's member permissions: may set up digests. */
const MANAGER = String(2248473465835073n | (1n << 4n));
/** The chat-input fixture's app_permissions without Send Messages, Embed Links, Read Message History. */
const NO_SEND = String(2248473465835073n & ~(1n << 11n));
const NO_EMBED = String(2248473465835073n & ~(1n << 14n));
const NO_HISTORY = String(2248473465835073n & ~(1n << 16n));
/** Discord's flag of a message only its recipient sees. */
const EPHEMERAL = 64;

interface DiscordPlace extends Place {
  /** The fixture the interaction comes from (test/fixtures/discord/<from>.json). */
  from: string;
  edit?: (payload: any) => void;
}

/** A place where a fixture was typed, its channel read from the fixture. */
function fixturePlace(from: string, edit?: (payload: any) => void): DiscordPlace {
  const payload = fromFixture({ snowflake: () => '1' }, from);
  edit?.(payload);
  return { channel: payload.channel_id, from, ...(edit && { edit }) };
}

/** A server channel of its own, where the bot has the chat-input fixture's permissions. */
function channel(n: number): DiscordPlace {
  const id = String(1190000000000003000n + BigInt(n));
  return fixturePlace('chat-input', (p) => {
    p.channel_id = id;
    p.channel.id = id;
  });
}

const MISSING = 'Ask a server admin to give Paper Scout View Channel, Send Messages, Embed Links and Read Message History in this channel (digests are embeds, and the bot reads the channel’s recent messages to make sure none is posted twice), then run /digest subscribe again.';

/** The total length of a message's embeds as Discord counts it (its 6000-character budget). */
function embedsLength(message: any): number {
  return (message.embeds ?? []).reduce(
    (n: number, e: any) =>
      n + (e.title?.length ?? 0) + (e.description?.length ?? 0) + (e.footer?.text?.length ?? 0) + (e.author?.name?.length ?? 0) + (e.fields ?? []).reduce((m: number, f: any) => m + f.name.length + f.value.length, 0),
    0,
  );
}

/** Member `n` of the fixture's server (0: the fixture's own member, Ada). */
function memberUser(n: number): { id: string; username: string; global_name: string } {
  if (n === 0) return { id: '1190000000000000400', username: 'ada', global_name: 'Ada Lovelace' };
  return { id: String(1190000000000000500n + BigInt(n)), username: `member${n}`, global_name: `Member ${n}` };
}

/** A message Discord received, read back. */
export function seenOf(message: any): Seen {
  const content: string = message.content ?? '';
  const lines = content.split('\n');
  // A heading is a bold first line with nothing but small print (`-# …`) under it.
  const heading = /^\*\*(.+)\*\*((?:\n-# .+)*)$/.exec(content)?.[1];
  const notes = lines.filter((l) => l.startsWith('-# ')).map((l) => l.slice(3));
  const subtitle = heading === undefined ? undefined : notes[0];
  const sections = (message.embeds ?? []).flatMap((e: any) => {
    const fields = (e.fields ?? []) as Array<{ name: string; value: string }>;
    if (e.title === undefined && fields.length > 0) {
      return [...(e.description ? [{ title: undefined, body: e.description, footer: undefined }] : []), ...fields.map((f) => ({ title: f.name, body: f.value, footer: undefined }))];
    }
    const body = [e.author?.name, e.description, ...fields.map((f) => `${f.name}\n${f.value}`)].filter((t) => typeof t === 'string').join('\n');
    return [{ title: e.title, body, footer: e.footer?.text }];
  });
  const components = (message.components ?? []).flatMap((row: any) => row.components);
  const select = components.find((c: any) => c.type === 3);
  return {
    private: message.flags === EPHEMERAL,
    heading,
    subtitle,
    notes,
    said: content,
    text: content,
    shown: [content, ...sections.flatMap((s: any) => [s.title, s.body, s.footer])].filter((t) => typeof t === 'string' && t !== '').join('\n'),
    sections,
    buttons: components.filter((c: any) => c.type === 2).map((c: any) => ({ label: c.label, disabled: c.disabled === true })),
    menu: select && { placeholder: select.placeholder, options: select.options.map((o: any) => o.label) },
    raw: message,
  };
}

export const discordDriver: Driver = {
  name: 'discord',
  showsDisabledButtons: true,
  places: { dm: fixturePlace('dm-chat-input'), groupDm: fixturePlace('group-dm-chat-input'), channel },
  refusals: [
    [
      'a server that has not added the bot (an app installed on the user’s account)',
      fixturePlace('user-install-chat-input'),
      'Paper Scout is not a member of this server (you are using it as an app installed on your own account), so it cannot post digests here. Ask a server admin to add Paper Scout to the server and run /digest subscribe again, or run it in a server that has Paper Scout.',
    ],
    [
      'a channel the bot cannot see or post in (Discord’s documented example)',
      fixturePlace('docs-chat-input'),
      `Paper Scout cannot post digests in this channel: it lacks the View Channel, Send Messages and Read Message History permissions here. ${MISSING}`,
    ],
    ['a channel without Send Messages', fixturePlace('chat-input', (p) => (p.app_permissions = NO_SEND)), `Paper Scout cannot post digests in this channel: it lacks the Send Messages permission here. ${MISSING}`],
    ['a channel without Embed Links', fixturePlace('chat-input', (p) => (p.app_permissions = NO_EMBED)), `Paper Scout cannot post digests in this channel: it lacks the Embed Links permission here. ${MISSING}`],
    // Without it a digest message whose answer was lost could never be looked for (Discord shows no history).
    ['a channel without Read Message History', fixturePlace('chat-input', (p) => (p.app_permissions = NO_HISTORY)), `Paper Scout cannot post digests in this channel: it lacks the Read Message History permission here. ${MISSING}`],
  ],
  literal: (markup) => markup.replace(/^</, '\\<\u200b').replace(/>$/, '\\>'),
  size: (seen) => embedsLength(seen.raw),
  nearBudget: 5000,

  async start(app: App, options = {}): Promise<Session> {
    /** What the adapter is doing in the background (recording a channel's shares), to wait for. */
    const tracked: Array<Promise<void>> = [];
    const bot = await startBot(app, { ...options, messageContent: options.archive === true, track: (p) => void tracked.push(p) });
    const fake = bot.fake;
    /** Where each interaction happened (by token), to say where its files went. */
    const channels = new Map<string, string>();

    /** The member's language and permissions, and which member. */
    const as = (payload: any, who: Who = {}): any => {
      if (who.locale) payload.locale = who.locale;
      if (who.manager && payload.member) payload.member.permissions = MANAGER;
      if (who.member !== undefined) {
        const user = memberUser(who.member);
        if (payload.member) payload.member.user = { ...payload.member.user, ...user };
        if (payload.user) payload.user = { ...payload.user, ...user };
      }
      channels.set(payload.token, payload.channel_id);
      return payload;
    };

    /** The INTERACTION_CREATE of a command typed as text, its options typed as its definition says. */
    const interaction = (typed: string, who: Who = {}): any => {
      const { name, text } = splitTyped(typed);
      const command = app.registry.get(name);
      if (!command) throw new Error(`no command /${name}`);
      const [first = '', ...rest] = text.trim().split(/\s+/);
      const sub = command.subcommands?.find((s) => s.name === first);
      const raw = (sub ?? command).fromText(sub ? rest.join(' ') : text) as Record<string, unknown>;
      const types = new Map(optionSpecs(command, undefined, sub).map((o) => [o.name, o.type]));
      const options = Object.fromEntries(
        Object.entries(raw)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, types.get(k) === 'integer' || types.get(k) === 'number' ? Number(v) : (v as string | boolean)]),
      );
      const place = (who.place ?? channel(0)) as DiscordPlace;
      const payload = slashCommand(fake, name, options, { from: place.from, ...(sub && { subcommand: sub.name }) });
      place.edit?.(payload);
      return as(payload, who);
    };

    /** A component interaction on a message the bot sent, where it was sent. */
    const onMessage = (payload: any, on: Seen, who: Who = {}): any => {
      payload.message = botMessage(fake, on.raw);
      const place = (who.place ?? channel(0)) as DiscordPlace;
      payload.channel_id = place.channel;
      if (payload.channel) payload.channel.id = place.channel;
      return as(payload, who);
    };

    const session: Session = {
      async command(typed, who) {
        return seenOf(messageOf(await fake.interact(interaction(typed, who))));
      },
      async send(typed, who) {
        const payload = interaction(typed, who);
        const first = await fake.interact(payload);
        const deferred = JSON.stringify(first.body) === JSON.stringify({ type: 5, data: { flags: 0 } });
        return {
          deferred,
          answer: async () => seenOf(deferred ? (await fake.waitFor((r) => r.token === payload.token && r.kind === 'edit')).body : messageOf(first)),
        };
      },
      async press(on, label, who) {
        const found = (on.raw.components ?? []).flatMap((row: any) => row.components).find((c: any) => c.type === 2 && c.label === label);
        if (!found) throw new Error(`no button "${label}" in ${JSON.stringify(on.buttons.map((b) => b.label))}`);
        return seenOf(messageOf(await fake.interact(onMessage(buttonClick(fake, found.custom_id), on, who))));
      },
      pressOnCard(on, position, label, who) {
        // An embed holds no button: the card's buttons are numbered as the cards are.
        return session.press(on, `${label} ${position}`, who);
      },
      async post(place, text, who = {}) {
        const before = tracked.length;
        const user = memberUser(who.member ?? 0);
        fake.memberPost(place.channel, text, { author: { ...user, discriminator: '0', avatar: null, public_flags: 0 } });
        // Sent to no connection (the bot did not ask for members' messages): nothing to wait for.
        if (fake.dispatched.at(-1)?.shard === undefined) return;
        await vi.waitFor(() => expect(tracked.length).toBeGreaterThan(before));
        await Promise.all(tracked.slice(before));
      },
      files: () =>
        fake.requests.flatMap((r) => r.files.map((f) => ({ name: f.name, content: f.content, channel: channels.get(r.token ?? '') ?? '' }))),
      async choose(on, option, who) {
        const select = (on.raw.components ?? []).flatMap((row: any) => row.components).find((c: any) => c.type === 3);
        const value = select.options[optionIndex(on.menu, option)].value;
        return seenOf(messageOf(await fake.interact(onMessage(menuChoice(fake, select.custom_id, [value]), on, who))));
      },
      sender: () => createDiscordSender({ token: fake.token, apiUrl: fake.apiUrl }),
      posted: (place) => fake.messagesIn(place.channel).map((m) => seenOf(m.body)),
      expectWellBehaved: () => expectWellBehaved(fake),
      stop: () => bot.stop(),
    };
    return session;
  },
};
