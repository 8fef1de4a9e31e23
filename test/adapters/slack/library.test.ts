/**
 * What only Slack has of /library: an export shared with files.uploadV2 in Slack's documented
 * wire format (the fake checks each step), sent to the member's DMs where the bot may not post
 * in the channel, and an answer that says what to do where Slack refuses the file altogether;
 * who may turn a channel's archive off, asked of Slack afresh; the archive's reading of
 * `message` events (which messages are members' shares, which links).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageShare, slackLinks } from '../../../adapters/slack/archive.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { startHarness, textOf, type SlackHarness } from './harness.js';

let app: TestApp;
let h: SlackHarness;
beforeAll(async () => {
  app = await createTestApp();
  h = await startHarness(app);
});
afterAll(async () => {
  await h.stop({ fake: true });
  await app.dispose();
});

/** A message's text as read: mrkdwn shows `_` as a lookalike (so that it cannot start italics). */
const shown = (message: Parameters<typeof textOf>[0]) => textOf(message).replace(/ˍ/g, '_');

/** `/library <text>` in `channel` by the fixture's member, and its answer. */
async function library(text: string, channel: string) {
  const res = await h.command('/library', text, { channel_id: channel, channel_name: 'lab' });
  return (await h.fake.waitForPosts(res.responseUrl))[0]!;
}

describe('/library export on Slack', () => {
  it('uploads in Slack’s three steps, into the channel; where the bot may not post there, into the member’s DMs, saying so', async () => {
    const channel = 'C0EXPORT1';
    await library('add paper:https://arxiv.org/abs/1706.03762', channel);
    await library('export format:csljson scope:channel', channel);
    const [url] = h.fake.callsOf('files.getUploadURLExternal').map((c) => c.args);
    expect(url).toMatchObject({ filename: 'paperscout-channel.json' });
    const shared = h.fake.files().at(-1)!;
    expect(shared).toMatchObject({ filename: 'paperscout-channel.json', shared: { channel, title: 'paperscout-channel.json' } });
    expect(shared.bytes).toBe(shared.length);
    expect(JSON.parse(shared.content!)[0].title).toBe('Attention Is All You Need');

    const private_ = 'G0PRIVATE1';
    h.fake.fail('files.completeUploadExternal', 'not_in_channel', (args) => args.channel_id === private_);
    await library('add paper:https://arxiv.org/abs/1810.04805', private_);
    const answer = await library('export format:bibtex scope:channel', private_);
    expect(shown(answer)).toContain('Paper Scout could not post the file in this channel (not_in_channel), so it is in your direct messages with Paper Scout.');
    expect(h.fake.files().at(-1)!.shared.channel).toBe(h.fake.dmWith('U0ALICE'));
  });

  it('says what to do when Slack takes no file at all (the app lacks files:write)', async () => {
    // From here on, for the rest of this file: no test after this one uploads.
    h.fake.fail('files.getUploadURLExternal', 'missing_scope');
    await library('add paper:https://arxiv.org/abs/1706.03762', 'C0EXPORT2');
    const answer = await library('export format:ris scope:channel', 'C0EXPORT2');
    expect(shown(answer)).toContain('Slack did not take the file (missing_scope). Ask whoever runs Paper Scout to give the app the files:write and im:write scopes');
  });
});

describe('/library archive on Slack', () => {
  it('asks Slack afresh whether the member is an admin: one demoted a moment ago may no longer turn it off', async () => {
    let admin = true;
    h.fake.answer('users.info', (args) => ({ ok: true, user: { id: args.user, is_admin: admin, profile: { display_name: 'Alice' } } }));
    const channel = 'C0ARCHIVE1';
    // Alice an admin in the cache, as /digest (which asks afresh) leaves her.
    await h.command('/digest', 'list', { channel_id: channel, channel_name: 'lab' }).then((r) => h.fake.waitForPosts(r.responseUrl));
    admin = false;
    expect(shown(await library('archive off', channel))).toBe("Only workspace admins can turn this channel's archive off. Ask one of them to run /library archive off.");
    admin = true;
    expect(shown(await library('archive off', channel))).toMatch(/^Paper links shared in this channel are no longer recorded/);
  });
});

describe('the archive reads message events', () => {
  const base = { type: 'message', channel: 'C0LAB', channel_type: 'channel', user: 'U0ALICE', ts: '1760000300.000100', text: 'see <https://arxiv.org/abs/1706.03762|arxiv.org/abs/1706.03762>' };
  it.each([
    ['a member’s message', base, ['https://arxiv.org/abs/1706.03762']],
    ['a thread reply sent to the channel too', { ...base, subtype: 'thread_broadcast' }, ['https://arxiv.org/abs/1706.03762']],
    ['a bot’s message', { ...base, bot_id: 'B0OTHER' }, undefined],
    ['an edit', { ...base, subtype: 'message_changed' }, undefined],
    ['a DM', { ...base, channel: 'D0ALICE', channel_type: 'im' }, undefined],
    ['a group DM', { ...base, channel: 'G0TRIO', channel_type: 'mpim' }, undefined],
    ['a message without a link', { ...base, text: 'no links here' }, undefined],
  ])('%s', (_, event, links) => {
    expect(messageShare(event, 'T0LAB')?.links).toEqual(links);
  });

  it('takes the links Slack wrapped, each once, and no mention or channel reference', () => {
    expect(slackLinks('<https://doi.org/10.1/x?a=1&amp;b=2|doi> <@U0BOB> <#C0LAB|lab> <!here> <https://doi.org/10.1/x?a=1&amp;b=2>')).toEqual(['https://doi.org/10.1/x?a=1&b=2']);
  });
});
