/**
 * The contract suite's Slack: the adapter as it runs in production (Bolt's HTTP receiver)
 * against the fake Slack, commands and clicks signed as Slack signs them, a command's text as
 * Slack delivers it (`&`, `<`, `>` escaped, links wrapped), the member's language and role from
 * users.info, and the response_url posts and Web API messages read back.
 */
import { expect } from 'vitest';
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
    const h = await startHarness(app);
    /** The members the tests speak as, by user id: their language and whether they are admins. */
    const members = new Map<string, { locale?: string; admin: boolean }>();
    h.fake.answer('users.info', (args) => {
      const member = members.get(String(args.user));
      if (!member) return { ok: true };
      return { ok: true, user: { id: args.user, is_admin: member.admin, ...(args.include_locale === 'true' && member.locale && { locale: member.locale }) } };
    });
    const userOf = (who: Who = {}): string | undefined => {
      if (!who.locale && !who.manager) return undefined; // the fixture's member, of whom Slack says nothing
      const id = `U0${(who.locale ?? 'XX').replace(/[^A-Za-z]/g, '').toUpperCase()}${who.manager ? 'ADMIN' : ''}`;
      members.set(id, { ...(who.locale && { locale: who.locale }), admin: who.manager === true });
      return id;
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
