/**
 * Every platform in the member's language (Discord tells it in each interaction, Slack in
 * users.info): a Chinese reader's searches, pages, papers and topics, their mistakes, the
 * digests they subscribe, list and stop, and the digest posts, all in Chinese; an English
 * reader in English and a zh-TW reader in Simplified Chinese, side by side.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runDueDigests } from '../../../src/digest/runner.js';
import { seedPath } from '../../../src/paths.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import type { Seen, Session, Who } from './driver.js';
import { DRIVERS } from './drivers.js';

const ZH: Who = { locale: 'zh-CN' };

describe.each(DRIVERS)('$name', (driver) => {
  let app: TestApp;
  let session: Session;
  beforeAll(async () => {
    app = await createTestApp({ paths: [seedPath('demo-papers.jsonl')], now: () => new Date('2026-11-29T10:00:00Z') });
    session = await driver.start(app);
  });
  afterAll(async () => {
    await session?.stop();
    await app?.dispose();
  });
  afterEach(() => session.expectWellBehaved());

  /** Prev on a first page: greyed out where the platform shows such buttons, else left out. */
  function expectNoPrev(page: Seen, label: string): void {
    const prev = page.buttons.find((b) => b.label === label);
    if (driver.showsDisabledButtons) expect(prev?.disabled).toBe(true);
    else expect(prev).toBeUndefined();
  }

  describe('a Chinese reader', () => {
    it.each([
      { query: '强化学习', reading: '强化学习 → reinforcement learning。', title: undefined, topic: /强化学习 · / },
      // (Two terms, and more papers holding both than a page shows.)
      { query: '深度学习 网络', reading: '深度学习 → deep learning；网络 → network。', title: 'Learning of Deep Networks from Decentralized Data', topic: / · / },
    ])('pages through /paper $query, opens a paper and goes back, all in Chinese', async ({ query, reading, title, topic }) => {
      const first = await session.command(`/paper ${query}`, ZH);
      expect(first.heading).toBe(`“${query}”的检索结果`);
      expect(first.subtitle).toMatch(new RegExp(`^\\d+ 篇论文 · 第 1/\\d+ 页 · 按以下英文检索：${reading}$`));
      if (title) expect(first.sections.map((s) => s.title)).toContainEqual(expect.stringContaining(title));
      expectNoPrev(first, '◀ 上一页');
      expect(first.menu?.placeholder).toBe('打开一篇论文…');
      const second = await session.press(first, '下一页 ▶', ZH);
      expect(second.subtitle).toMatch(/第 2\/\d+ 页/);
      const detail = await session.choose(first, 0, ZH);
      expect(detail.sections[1]?.title).toBe('相似论文');
      expect(detail.sections[0]?.footer).toMatch(topic);
      const back = await session.press(detail, '◀ 返回结果', ZH);
      expect(back.heading).toBe(first.heading);
      expect(back.text).toBe(first.text);
    });

    it('gets /topic 大语言模型, the list of topics and /help in Chinese', async () => {
      const topic = await session.command('/topic 大语言模型', ZH);
      expect(topic.heading).toBe('深度学习 · 大语言模型');
      const list = await session.command('/topic', ZH);
      expect(list.heading).toBe('研究方向');
      expect(list.sections[0]?.title).toBe('深度学习');
      const help = await session.command('/help', ZH);
      expect(help.heading).toBe('Paper Scout 论文检索');
      expect(help.notes).toEqual([]);
      expect(help.sections.map((s) => s.title)).toContain('检索语法');
      expect(help.sections[0]?.body).toContain('/paper：按标题、作者或关键词检索论文');
    });

    it.each([
      ['/topic qwzx blorf', '没有与“qwzx blorf”匹配的方向。不带名称运行 /topic 可查看全部方向。'],
      ['/digest subscribe llm time:25:00', 'time：“25:00”不是一天中的时间。请用 24 小时制 HH:MM，例如 09:00 或 17:30（9am 也可以）。'],
    ])('has %s explained in Chinese, privately', async (typed, text) => {
      const reply = await session.command(typed, { ...ZH, manager: true });
      expect(reply.private).toBe(true);
      expect(reply.said).toBe(text);
    });

    it('keeps their language in a digest they subscribe', async () => {
      const place = driver.places.channel(1);
      const reply = await session.command('/digest subscribe topic:大语言模型 timezone:Asia/Shanghai', { ...ZH, manager: true, place });
      expect(reply.said).toMatch(/^已订阅：深度学习 · 大语言模型，每天 09:00（Asia\/Shanghai），最多 5 篇论文。下次推送：\d{4}年\d+月\d+日星期./);
      const [sub] = await app.digests.forChannel(driver.name, place.channel);
      expect(sub?.locale).toBe('zh-CN');
    });

    it('chooses among several matching topics from a menu that opens the topic', async () => {
      const offer = await session.command('/topic 强化学习', ZH);
      expect(offer.said).toBe('有多个方向与“强化学习”匹配，请选择一个：');
      expect(offer.menu?.placeholder).toBe('选择一个方向…');
      const chosen = await session.choose(offer, 0, ZH);
      expect(chosen.heading).toBe('强化学习 · 深度强化学习');
    });

    it('lists and stops digests in Chinese, choosing which from a menu', async () => {
      const who: Who = { ...ZH, manager: true, place: driver.places.channel(2) };
      await session.command('/digest subscribe 联邦学习', who);
      await session.command('/digest subscribe 对比学习 time:08:00', who);
      await session.command('/digest subscribe 知识蒸馏 time:08:00', who);
      const list = await session.command('/digest list', who);
      expect(list.heading).toBe('本频道的推送');
      expect(list.notes).toEqual([]);
      expect(list.sections[0]?.body).toContain('优化 · 大规模、分布式与联邦优化 — 优化 · 大规模、分布式与联邦优化，每天 09:00');
      expect(list.sections[0]?.body).toContain('深度学习 · 自监督学习');
      for (const label of ['优化 · 大规模、分布式与联邦优化', '深度学习 · 自监督学习']) {
        const which = await session.command('/digest unsubscribe', who);
        expect(which.said).toBe('本频道有多个推送。要停止哪一个？');
        const stopped = await session.choose(which, label, who);
        expect(stopped.said).toBe(`已停止本频道关于${label}的每日推送。`);
      }
    });
  });

  it('answers an English reader in English and zh-TW readers in Simplified Chinese, side by side', async () => {
    const english = await session.command('/topic 大语言模型', { locale: 'en-US' });
    expect(english.heading).toBe('Deep Learning · Large Language Models');
    const tw = await session.command('/topic', { locale: 'zh-TW' });
    expect(tw.heading).toBe('研究方向');
    const twHelp = await session.command('/help', { locale: 'zh-TW' });
    expect(twHelp.heading).toBe('Paper Scout 论文检索');
    const french = await session.command('/help', { locale: 'fr' });
    expect(french.heading).toBe('Paper Scout');
  });

  it('heads each digest in the language of whoever subscribed', async () => {
    const chinese = driver.places.channel(3);
    const english = driver.places.channel(4);
    await session.command('/digest subscribe 大语言模型 time:09:00 timezone:Asia/Shanghai count:2 fill:yes', { ...ZH, manager: true, place: chinese });
    await session.command('/digest subscribe llm time:09:00 timezone:Asia/Shanghai count:2 fill:yes', { locale: 'en-US', manager: true, place: english });
    const [sub] = await app.digests.forChannel(driver.name, chinese.channel);
    expect(sub).toMatchObject({ locale: 'zh-CN', label: 'Deep Learning · Large Language Models', query: 'topic:"deep-learning/large-language-models"' });
    const summary = await runDueDigests({ digests: app.digests, library: app.library, states: app.states, senders: { [driver.name]: session.sender() }, log: app.log }, new Date('2026-11-30T01:00:00Z'));
    expect(summary.sent).toBeGreaterThanOrEqual(2);
    const [zh] = session.posted(chinese);
    expect(zh?.heading).toBe('深度学习 · 大语言模型 · 2026年11月30日星期一');
    expect(zh?.subtitle).toMatch(/^自 .+ 以来没有新论文；以下是本频道还没收到过的最佳论文。$/);
    expect(session.posted(chinese).flatMap((m) => m.buttons.map((b) => b.label))).toContain('更多：深度学习 · 大语言模型');
    expect(session.posted(english)[0]?.heading).toBe('Deep Learning · Large Language Models · Monday, 30 November 2026');
  });
});
