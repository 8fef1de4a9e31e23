/**
 * Slack in the member's language, through Bolt's receiver against the fake Slack: the language
 * comes from users.info with include_locale (asked once and cached), every command and button
 * answers in it, Block Kit's own words included, and digests speak their subscriber's language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackSender } from '../../../adapters/slack/digestSender.js';
import { runDueDigests } from '../../../src/digest/runner.js';
import { seedPath } from '../../../src/paths.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { limitViolations } from './blockKitLimits.js';
import { BOT_TOKEN, type Json } from './fakeSlack.js';
import { button, clickPayload, fixture, menu, startHarness, textOf, type SlackHarness } from './harness.js';

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

  it('answers a Chinese reader in Chinese: results, Share, Next, a paper and Back', async () => {
    // (More papers have "language model" than a page holds: the answer has a next page.)
    const page = await slash('U0ZH', '/paper', '语言模型');
    expect(page.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: '“语言模型”的检索结果' } });
    expect(textOf(page)).toContain('按以下英文检索：语言模型 → language model。');
    expect(textOf(page)).toContain('Language Models are Few-Shot Learners');
    expect(button(page, '分享到频道').value).toBe('run:paper:语言模型');
    const next = await click('U0ZH', button(page, '下一页 ▶'));
    expect(textOf(next)).toContain('第 2/');
    const select = menu(page);
    expect(select.placeholder.text).toBe('打开一篇论文…');
    const detail = await click('U0ZH', select, { selected: select.options[0] });
    expect(textOf(detail)).toContain('*相似论文*');
    const back = await click('U0ZH', button(detail, '◀ 返回结果'));
    expect(back.blocks[0].text.text).toBe('“语言模型”的检索结果');
  });

  it('shares in the sharer’s language, with "Shared by" in it too', async () => {
    const page = await slash('U0ZH', '/topic', '大语言模型');
    expect(page.blocks[0].text.text).toBe('深度学习 · 大语言模型');
    const before = h.fake.callsOf('chat.postMessage').length;
    await click('U0ZH', button(page, '分享到频道'));
    const shared = await h.fake.waitForCall('chat.postMessage', before);
    expect(textOf(shared.args)).toContain('由 <@U0ZH> 分享');
  });

  it('answers an English reader in English and a zh-TW reader in Simplified Chinese, in the same workspace', async () => {
    const english = await slash('U0EN', '/topic', '大语言模型');
    expect(english.blocks[0].text.text).toBe('Deep Learning · Large Language Models');
    expect(button(english, 'Share in channel')).toBeDefined();
    const tw = await slash('U0TW', '/topic', '');
    expect(tw.blocks[0].text.text).toBe('研究方向');
  });

  it('/digest list and unsubscribe in Chinese, and the menu that stops one', async () => {
    await slash('U0ZH', '/digest', 'subscribe 对比学习 time:08:00');
    await slash('U0ZH', '/digest', 'subscribe 知识蒸馏 time:08:00');
    const list = await slash('U0ZH', '/digest', 'list');
    expect(list.blocks[0].text.text).toBe('本频道的推送');
    expect(textOf(list)).toContain('深度学习 · 自监督学习');
    const which = await slash('U0ZH', '/digest', 'unsubscribe');
    expect(textOf(which)).toContain('本频道有多个推送。要停止哪一个？');
    const select = menu(which);
    const option = select.options.find((o: Json) => o.text.text === '深度学习 · 自监督学习');
    const stopped = await click('U0ZH', select, { selected: option });
    expect(textOf(stopped)).toContain('已停止本频道关于深度学习 · 自监督学习的每日推送。');
  });

  it('explains mistakes in Chinese', async () => {
    const reply = await slash('U0ZH', '/digest', 'subscribe llm time:25:00');
    expect(textOf(reply)).toContain('time：“25:00”不是一天中的时间');
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

describe('digests in the subscriber’s language', () => {
  it('posts the header, the count and More in the language of whoever subscribed', async () => {
    const sender = createSlackSender({ botToken: BOT_TOKEN, apiUrl: h.fake.apiUrl, port: 0 }, app.log);
    await slash('U0ZH', '/digest', 'subscribe 大语言模型 time:09:00 timezone:Asia/Shanghai count:2 fill:yes');
    const sub = (await app.digests.forChannel('slack', 'C0GENERAL')).find((d) => d.query === 'topic:"deep-learning/large-language-models"');
    expect(sub).toMatchObject({ locale: 'zh-CN', label: 'Deep Learning · Large Language Models' });
    const before = h.fake.callsOf('chat.postMessage').length;
    const summary = await runDueDigests({ digests: app.digests, library: app.library, states: app.states, senders: { slack: sender }, log: app.log }, new Date('2026-11-30T01:00:00Z'));
    expect(summary.sent).toBeGreaterThanOrEqual(1);
    const post = h.fake.callsOf('chat.postMessage').slice(before).find((c) => JSON.stringify(c.args.blocks).includes('大语言模型'))!;
    expect(post.args.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: '深度学习 · 大语言模型 · 2026年11月30日星期一' } });
    expect(textOf(post.args)).toMatch(/自 .+ 以来没有新论文；以下是本频道还没收到过的最佳论文。/);
    expect(textOf(post.args)).toContain('更多：深度学习 · 大语言模型');
    expect(limitViolations(post.args)).toEqual([]);
  });
});
