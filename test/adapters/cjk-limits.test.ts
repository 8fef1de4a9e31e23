/**
 * Chinese text within Discord's and Slack's limits, counted as the platforms count: both count
 * characters as Unicode code points (Discord's API measures Python string length, Slack its
 * "characters"), so a Chinese character counts one and an emoji or a rare CJK Extension B
 * character (two UTF-16 units) also one. The renderers count UTF-16 units, never fewer: they
 * stay within the limits, use them for Chinese, and never cut a character in half.
 */
import { describe, expect, it } from 'vitest';
import { renderMessage } from '../../adapters/discord/render.js';
import { renderReply } from '../../adapters/slack/render.js';
import type { PaperCard, Reply } from '../../src/reply.js';

const chars = (s: string | undefined) => [...(s ?? '')].length;
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function paper(i: number, extra: Partial<PaperCard> = {}): PaperCard {
  return {
    id: `p${i}`,
    doc: i,
    title: `基于扩散模型的视频生成研究${'𠀀𠀁😀'.repeat(40)}${'视频'.repeat(200)}`,
    authors: Array.from({ length: 60 }, (_, k) => `张伟${k}号`),
    venue: '中国计算机学会',
    year: 2024,
    status: '口头报告',
    topics: ['深度学习 · 生成模型与自编码器', '计算机视觉 · 视频与运动'],
    snippet: [{ text: '我们提出一种新的扩散模型。'.repeat(200) }, { text: '扩散', match: true }],
    links: [{ kind: 'code', label: '代码', url: 'https://github.com/x/y' }],
    position: i + 1,
    ...extra,
  };
}

const results: Reply = {
  locale: 'zh-CN',
  fallback: '“扩散模型”的检索结果'.repeat(300),
  blocks: [{ kind: 'heading', text: '“扩散模型”的检索结果'.repeat(20) }, { kind: 'note', text: '按以下英文检索：扩散模型 → diffusion model。'.repeat(100) }, ...Array.from({ length: 5 }, (_, i) => ({ kind: 'paper' as const, paper: paper(i) }))],
  buttons: [[{ id: 'prev', label: '◀ 上一页'.repeat(30), action: 'paper:page:s:0' }, { id: 'next', label: '下一页 ▶', action: 'paper:page:s:1' }]],
  menu: { placeholder: '打开一篇论文…'.repeat(40), choices: Array.from({ length: 5 }, (_, i) => ({ label: paper(i).title, action: `paper:open:${i}`, description: '张伟 · 中国计算机学会 · 2024'.repeat(10) })) },
};
const detail: Reply = { locale: 'zh-CN', fallback: '论文', blocks: [{ kind: 'paper', paper: paper(0, { abstract: '本文研究视频生成。'.repeat(1000), position: undefined }) }] };

describe('Discord', () => {
  it('keeps every field within its limit in code points, with no half characters', () => {
    for (const reply of [results, detail]) {
      const m = renderMessage(reply);
      expect(chars(m.content)).toBeLessThanOrEqual(2000);
      let total = 0;
      for (const e of m.embeds) {
        expect(chars(e.title)).toBeLessThanOrEqual(256);
        expect(chars(e.description)).toBeLessThanOrEqual(4096);
        expect(chars(e.author?.name)).toBeLessThanOrEqual(256);
        expect(chars(e.footer?.text)).toBeLessThanOrEqual(2048);
        for (const f of e.fields ?? []) {
          expect(chars(f.name)).toBeLessThanOrEqual(256);
          expect(chars(f.value)).toBeLessThanOrEqual(1024);
          total += chars(f.name) + chars(f.value);
        }
        total += chars(e.title) + chars(e.description) + chars(e.author?.name) + chars(e.footer?.text);
      }
      expect(total).toBeLessThanOrEqual(6000);
      for (const row of m.components) {
        for (const c of row.components as Array<Record<string, any>>) {
          if (c.label) expect(chars(c.label)).toBeLessThanOrEqual(80);
          if (c.placeholder) expect(chars(c.placeholder)).toBeLessThanOrEqual(150);
          for (const o of c.options ?? []) expect(chars(o.label) <= 100 && chars(o.description) <= 100).toBe(true);
        }
      }
      // JSON.stringify writes a lone surrogate as an escape; whole characters stay as they are.
      expect(JSON.stringify(m)).not.toMatch(/\\ud[89a-f][0-9a-f]{2}/i);
    }
  });

  it('uses the room it has for Chinese (a character is one, not three bytes)', () => {
    const m = renderMessage(detail);
    expect(chars(m.embeds[0]!.description)).toBeGreaterThan(3500);
    expect(m.embeds[0]!.fields?.[0]?.name).toBe('作者');
  });
});

describe('Slack', () => {
  it('keeps every text within its limit in code points, with no half characters', () => {
    for (const reply of [results, detail]) {
      const m = renderReply(reply, { share: 'run:paper:扩散模型' });
      expect(m.blocks.length).toBeLessThanOrEqual(50);
      for (const b of m.blocks as Array<Record<string, any>>) {
        if (b.type === 'header') expect(chars(b.text.text)).toBeLessThanOrEqual(150);
        if (b.type === 'section') expect(chars(b.text.text)).toBeLessThanOrEqual(3000);
        for (const e of b.elements ?? []) {
          if (e.type === 'button') expect(chars(e.text.text)).toBeLessThanOrEqual(75);
          if (e.type === 'static_select') {
            expect(chars(e.placeholder.text)).toBeLessThanOrEqual(150);
            for (const o of e.options) expect(chars(o.text.text) <= 75 && chars(o.description?.text) <= 75).toBe(true);
          }
        }
      }
      for (const text of JSON.stringify(m).match(/"text":"[^"]*"/g) ?? []) expect(loneSurrogate.test(JSON.parse(`{${text}}`).text)).toBe(false);
    }
  });

  it('uses the room it has for Chinese, and says so in Chinese when it must leave something out', () => {
    const m = renderReply(detail);
    const longest = Math.max(...(m.blocks as Array<Record<string, any>>).filter((b) => b.type === 'section').map((b) => chars(b.text.text)));
    expect(longest).toBeGreaterThan(2500);
    const many: Reply = { ...results, blocks: Array.from({ length: 60 }, (_, i) => ({ kind: 'paper' as const, paper: paper(i) })) };
    expect(JSON.stringify(renderReply(many).blocks)).toContain('为符合 Slack 消息长度限制，省略了部分内容。');
  });
});
