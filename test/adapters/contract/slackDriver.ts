/**
 * The contract suite's Slack: the adapter as it runs in production (Bolt's HTTP receiver)
 * against the fake Slack, commands and clicks signed as Slack signs them, a command's text as
 * Slack delivers it (`&`, `<`, `>` escaped, links wrapped), the member's language and role from
 * users.info, and the response_url posts and Web API messages read back.
 */
import { expect, vi } from 'vitest';
import { createSlackSender } from '../../../adapters/slack/digestSender.js';
import type { App } from '../../../src/app.js';
import { limitViolations } from '../slack/blockKitLimits.js';
import { BOT_TOKEN, type Json } from '../slack/fakeSlack.js';
import { clickPayload, elementsOf, startHarness, textOf } from '../slack/harness.js';
import { optionIndex, splitTyped, type Driver, type Place, type Section, type Seen, type Session, type Who } from './driver.js';

interface SlackPlace extends Place {
  /** The slash command's channel fields. */
  fields: Record<string, string>;
}

const place = (channel_id: string, channel_name: string): SlackPlace => ({ channel: channel_id, fields: { channel_id, channel_name } });

/** The link label Slack shows for a URL it wrapped. */
const LINK = /<(https?:\/\/[^\s<>|]+)(?:\|([^<>]*))?>/g;

/**
 * Text as Slack delivers what was typed: entities for `&`, `<`, `>`, and links wrapped with
 * their label (`<https://arxiv.org/abs/1|arxiv.org/abs/1>`).
 */
export function asSlackSends(typed: string): string {
  const escaped = typed.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return escaped.replace(/https?:\/\/[^\s]+/g, (url) => `<${url}|${url.replace(/^https?:\/\//, '')}>`);
}

/** A message Slack received (a response_url post or a message's arguments), read back. */
export function seenOf(message: Json): Seen {
  const blocks = (message.blocks ?? []) as Json[];
  const heading = blocks[0]?.type === 'header' && blocks[0].text?.type === 'plain_text' ? (blocks[0].text.text as string) : undefined;
  const contextText = (b: Json) => (b.elements as Json[]).map((e) => e.text).filter((t) => typeof t === 'string').join(' | ');
  const subtitle = heading !== undefined && blocks[1]?.type === 'context' ? contextText(blocks[1]) : undefined;
  const sections: Section[] = [];
  const notes: string[] = [];
  for (const b of blocks) {
    if (b.type === 'section') {
      const text = String(b.text?.text ?? '');
      const [first = '', ...rest] = text.split('\n');
      const titled = /^\*(.+)\*$/.exec(first);
      const current = sections.at(-1);
      if (titled) sections.push({ title: titled[1]!.replace(LINK, (_, url: string, label?: string) => label ?? url), body: rest.join('\n'), footer: undefined });
      else if (current) current.body = [current.body, text].filter(Boolean).join('\n');
      else sections.push({ title: undefined, body: text, footer: undefined });
    } else if (b.type === 'context') {
      const current = sections.at(-1);
      if (current) current.footer = [current.footer, contextText(b)].filter(Boolean).join(' | ');
      else notes.push(contextText(b));
    }
  }
  const elements = elementsOf(message);
  const select = elements.find((e) => e.type === 'static_select');
  return {
    private: message.response_type === 'ephemeral',
    heading,
    subtitle,
    notes,
    said: String(blocks.find((b) => b.type === 'section')?.text?.text ?? ''),
    text: String(message.text ?? ''),
    shown: textOf(message),
    sections,
    buttons: elements.filter((e) => e.type === 'button').map((e) => ({ label: e.text.text as string, disabled: false })),
    menu: select && { placeholder: select.placeholder.text, options: (select.options as Json[]).map((o) => o.text.text as string) },
    raw: message,
  };
}

export const slackDriver: Driver = {
  name: 'slack',
  showsDisabledButtons: false,
  places: {
    dm: place('D0ALICEBOT', 'directmessage'),
    groupDm: place('G0TRIO', 'mpdm-alice--bob--carol-1'),
    channel: (n) => place(`C0PAPERS${n}`, `papers-${n}`),
  },
  refusals: [['a DM named only by its id', place('D0ALICEBOB', 'privategroup'), 'Digests are posted in channels, and this is a direct message. Run /digest subscribe in the channel that should get the papers.']],
  literal: (markup) => markup.replace(/</g, '&lt;').replace(/>/g, '&gt;'),
  size: (seen) => JSON.stringify(seen.raw.blocks ?? []).length,
  nearBudget: 8000,

  async start(app: App): Promise<Session> {
    const tracked: Array<Promise<void>> = [];
    const h = await startHarness(app, undefined, { track: (p) => void tracked.push(p) });
    /** The members the tests speak as, by user id: their language and whether they are admins. */
    const members = new Map<string, { locale?: string; admin: boolean; name?: string }>();
    h.fake.answer('users.info', (args) => {
      const member = members.get(String(args.user));
      if (!member) return { ok: true };
      const profile = member.name ? { profile: { display_name: member.name } } : {};
      return { ok: true, user: { id: args.user, is_admin: member.admin, ...profile, ...(args.include_locale === 'true' && member.locale && { locale: member.locale }) } };
    });
    const userOf = (who: Who = {}): string | undefined => {
      if (!who.locale && !who.manager && !who.member) return undefined; // the fixture's member, of whom Slack says nothing
      const id = `U0${(who.locale ?? 'XX').replace(/[^A-Za-z]/g, '').toUpperCase()}${who.manager ? 'ADMIN' : ''}${who.member ? `M${who.member}` : ''}`;
      members.set(id, { ...(who.locale && { locale: who.locale }), admin: who.manager === true, ...(who.member && { name: `Member ${who.member}` }) });
      return id;
    };
    let events = 0;
    /** An Events API callback from the fixture's workspace, and its handling to its end. */
    const event = async (inner: Json): Promise<void> => {
      const before = tracked.length;
      const res = await h.event({ token: 'x', team_id: 'T0LAB', api_app_id: 'A0PAPERSCOUT', type: 'event_callback', event_id: `Ev0POST${++events}`, event_time: 1760000200, event: inner });
      if (res.status !== 200) throw new Error(`Slack: the event got ${res.status}`);
      await vi.waitFor(() => expect(tracked.length).toBeGreaterThan(before));
      await Promise.all(tracked.slice(before));
    };
    const fieldsOf = (who: Who = {}): Record<string, string> => {
      const user = userOf(who);
      return { ...((who.place ?? slackDriver.places.channel(0)) as SlackPlace).fields, ...(user && { user_id: user, user_name: user.toLowerCase() }) };
    };
    const send = async (typed: string, who?: Who) => {
      const { name, text } = splitTyped(typed);
      const res = await h.command(`/${name}`, asSlackSends(text), fieldsOf(who));
      return { res, answer: async () => seenOf((await h.fake.waitForPosts(res.responseUrl))[0]!) };
    };
    /** A click on an ephemeral message in the place it was sent to. */
    const click = async (element: Json, who: Who = {}, selected?: Json): Promise<Seen> => {
      const user = userOf(who);
      const { channel_id, channel_name } = ((who.place ?? slackDriver.places.channel(0)) as SlackPlace).fields;
      const payload = clickPayload(element, { ...(user && { user }), ...(selected && { selected }) });
      const res = await h.action({ ...payload, channel: { id: channel_id, name: channel_name }, container: { ...(payload.container as Json), channel_id } });
      if (res.status !== 200) throw new Error(`Slack: the click got ${res.status}`);
      return seenOf((await h.fake.waitForPosts(res.responseUrl))[0]!);
    };
    return {
      async command(typed, who) {
        const { res, answer } = await send(typed, who);
        if (res.status !== 200) throw new Error(`Slack: ${typed} got ${res.status}`);
        return answer();
      },
      async send(typed, who) {
        const { res, answer } = await send(typed, who);
        return { deferred: res.status === 200 && res.body === '', answer };
      },
      press(on, label, who) {
        const found = elementsOf(on.raw).find((e) => e.type === 'button' && e.text?.text === label);
        if (!found) throw new Error(`no button "${label}" in ${JSON.stringify(on.buttons.map((b) => b.label))}`);
        return click(found, who);
      },
      pressOnCard(on, position, label, who) {
        // The card's own button is its title section's accessory.
        const card = ((on.raw.blocks ?? []) as Json[]).find((b) => b.type === 'section' && new RegExp(`^\\*(?:<[^|>]*\\|)?${position}\\. `).test(String(b.text?.text ?? '')));
        if (card?.accessory?.text?.text !== label) throw new Error(`no "${label}" beside card ${position}`);
        return click(card.accessory as Json, who);
      },
      async post(where, text, who = {}) {
        const user = userOf(who) ?? 'U0ALICE';
        const ts = `17600003${String(events).padStart(2, '0')}.000100`;
        const links = [...text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]);
        // As Slack sends it: the message (links wrapped in <…>), then link_shared for the unfurl domains.
        await event({ type: 'message', channel: where.channel, channel_type: 'channel', user, text: asSlackSends(text), ts, team: 'T0LAB', event_ts: ts });
        const unfurlable = links.filter((l) => /^https?:\/\/([^/]+\.)?(arxiv\.org|openreview\.net|doi\.org)\//.test(l));
        if (unfurlable.length > 0) {
          await event({ type: 'link_shared', channel: where.channel, is_bot_user_member: true, user, message_ts: ts, unfurl_id: `${where.channel}.${ts}.x`, source: 'conversations_history', links: unfurlable.map((url) => ({ domain: new URL(url).hostname, url })), event_ts: ts });
        }
      },
      files: () => h.fake.files().map((f) => ({ name: f.filename, content: f.content ?? '', channel: f.shared.channel ?? '' })),
      choose(on, option, who) {
        const select = elementsOf(on.raw).find((e) => e.type === 'static_select')!;
        return click(select, who, select.options[optionIndex(on.menu, option)]);
      },
      sender: () => createSlackSender({ botToken: BOT_TOKEN, apiUrl: h.fake.apiUrl, port: 0 }, app.log),
      posted: (where) => h.fake.messagesIn(where.channel).map((m) => seenOf({ text: m.text, blocks: m.blocks })),
      expectWellBehaved() {
        const messages = [...h.fake.posts.map((p) => p.body), ...['chat.postMessage', 'chat.update', 'chat.postEphemeral'].flatMap((m) => h.fake.callsOf(m).map((c) => c.args))];
        for (const message of messages) expect(limitViolations(message), JSON.stringify(message).slice(0, 200)).toEqual([]);
      },
      stop: () => h.stop({ fake: true }),
    };
  },
};
