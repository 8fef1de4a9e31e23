/**
 * Slack in the member's language where only Slack has one, through Bolt's receiver against the
 * fake Slack: the language comes from users.info with include_locale (asked once and cached),
 * and Share, a shared copy, a mention's answer and an unfurl are in it. The commands, buttons
 * and digests in the member's language are the adapter contract's
 * (test/adapters/contract/locale.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPath } from '../../../src/paths.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { limitViolations } from './blockKitLimits.js';
import { BOT_TOKEN, type Json } from './fakeSlack.js';
import { button, clickPayload, fixture, startHarness, textOf, type SlackHarness } from './harness.js';

let app: TestApp;
let h: SlackHarness;
const LOCALES: Record<string, string> = { U0ZH: 'zh-CN', U0TW: 'zh-TW', U0EN: 'en-US' };

beforeAll(async () => {
  app = await createTestApp({ paths: [seedPath('demo-papers.jsonl')], now: () => new Date('2026-11-29T10:00:00Z') });
  h = await startHarness(app);
  h.fake.answer('users.info', (args) => ({
    ok: true,
    user: { id: args.user, is_admin: true, tz: 'Asia/Shanghai', ...(args.include_locale === 'true' && LOCALES[args.user] && { locale: LOCALES[args.user] }) },
  }));
});
afterAll(async () => {
  await h?.stop({ fake: true });
  await app?.dispose();
});

async function slash(user: string, command: string, text: string): Promise<Json> {
  const res = await h.command(command, text, { user_id: user, user_name: user.toLowerCase() });
  const [post] = await h.fake.waitForPosts(res.responseUrl);
  expect(limitViolations(post!)).toEqual([]);
  return post!;
}

async function click(user: string, element: Json, options: Parameters<typeof clickPayload>[1] = {}): Promise<Json> {
  const res = await h.action(clickPayload(element, { ...options, user }));
  const [post] = await h.fake.waitForPosts(res.responseUrl);
  return post!;
}

describe('Slack in the member’s language', () => {
  it('asks users.info for the locale, once per member while it is fresh', async () => {
    const before = h.fake.callsOf('users.info').length;
    const help = await slash('U0ZH', '/help', '');
    expect(help.blocks[0].text.text).toBe('Paper Scout 论文检索');
    expect(textOf(help)).toContain('*检索语法*');
    await slash('U0ZH', '/help', '');
    const calls = h.fake.callsOf('users.info').slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ token: BOT_TOKEN, args: { user: 'U0ZH', include_locale: 'true' } });
  });

  it('offers Share in the reader’s language, carrying what they searched', async () => {
    const page = await slash('U0ZH', '/paper', '扩散模型 视频生成');
    expect(button(page, '分享到频道').value).toBe('run:paper:扩散模型 视频生成');
    const english = await slash('U0EN', '/topic', '大语言模型');
    expect(button(english, 'Share in channel')).toBeDefined();
  });

  it('shares in the sharer’s language, with "Shared by" in it too', async () => {
    const page = await slash('U0ZH', '/topic', '大语言模型');
    expect(page.blocks[0].text.text).toBe('深度学习 · 大语言模型');
    const before = h.fake.callsOf('chat.postMessage').length;
    await click('U0ZH', button(page, '分享到频道'));
    const shared = await h.fake.waitForCall('chat.postMessage', before);
    expect(textOf(shared.args)).toContain('由 <@U0ZH> 分享');
  });

  it('answers a mention in the asker’s language, and unfurls a link in the sharer’s', async () => {
    const before = h.fake.callsOf('chat.postEphemeral').length;
    const body = fixture('app-mention');
    await h.event({ ...body, event_id: 'EvZH1', event: { ...(body.event as Json), user: 'U0ZH', text: '<@U0BOT>' } });
    const answer = await h.fake.waitForCall('chat.postEphemeral', before);
    expect(answer.args.text).toContain('提到我并写上要找的内容');
    const unfurls = h.fake.callsOf('chat.unfurl').length;
    const link = fixture('link-shared');
    await h.event({ ...link, event_id: 'EvZH2', event: { ...(link.event as Json), user: 'U0ZH' } });
    const unfurl = await h.fake.waitForCall('chat.unfurl', unfurls);
    const card = (unfurl.args.unfurls as Record<string, { blocks: Json[] }>)['https://arxiv.org/abs/1706.03762']!;
    expect(JSON.stringify(card.blocks)).toContain('深度学习 · 注意力机制与Transformer');
  });
});
