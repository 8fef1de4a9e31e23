/**
 * A Chinese-speaking member's view, on the demo corpus: topics by their Chinese names, Chinese
 * and mixed queries read through the glossary, and labels in their language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../src/commands/types.js';
import { seedPath } from '../../src/paths.js';
import type { Block, PaperCard, Reply } from '../../src/reply.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
let zh: CommandContext;
let en: CommandContext;
beforeAll(async () => {
  app = await createTestApp({ paths: [seedPath('demo-papers.jsonl')] });
  zh = app.context('discord', { id: 'u-zh' }, { locale: 'zh-CN', channel: { id: 'c1' }, workspace: { id: 'g1', locale: 'en-US' } });
  en = app.context('discord', { id: 'u-en' }, { locale: 'en-US', channel: { id: 'c1' }, workspace: { id: 'g1', locale: 'zh-CN' } });
});
afterAll(() => app?.dispose());

const cards = (reply: Reply): PaperCard[] => reply.blocks.flatMap((b: Block) => (b.kind === 'paper' ? [b.paper] : []));
const heading = (reply: Reply) => reply.blocks.find((b) => b.kind === 'heading') as { text: string } | undefined;
const note = (reply: Reply) => (reply.blocks.find((b) => b.kind === 'note') as { text: string } | undefined)?.text ?? '';

describe('/topic in Chinese', () => {
  it('/topic 大语言模型 opens Large Language Models, headed in the member’s language', async () => {
    const reply = await app.registry.runText(zh, 'topic', '大语言模型');
    expect(heading(reply)?.text).toBe('深度学习 · 大语言模型');
    expect(cards(reply).length).toBeGreaterThan(0);
    const english = await app.registry.runText(en, 'topic', '大语言模型');
    expect(heading(english)?.text).toBe('Deep Learning · Large Language Models');
    expect(cards(english).map((c) => c.id)).toEqual(cards(reply).map((c) => c.id));
  });

  it('finds topics by Chinese aliases and by part of a Chinese name', async () => {
    for (const [input, label] of [
      ['大模型', '深度学习 · 大语言模型'],
      ['扩散模型', '深度学习 · 生成模型与自编码器'],
      ['对比学习', '深度学习 · 自监督学习'],
      ['联邦学习', '优化 · 大规模、分布式与联邦优化'],
      ['深度强化学习', '强化学习 · 深度强化学习'],
      ['目标检测', '计算机视觉 · 目标检测与分割'],
    ]) {
      expect(heading(await app.registry.runText(zh, 'topic', input!))?.text, input).toBe(label);
    }
  });

  it('offers the topics of an area named in Chinese, in Chinese', async () => {
    const reply = await app.registry.runText(zh, 'topic', '强化学习');
    expect(reply.blocks[0]).toEqual({ kind: 'text', text: '有多个方向与“强化学习”匹配，请选择一个：' });
    expect(reply.menu?.choices.map((c) => c.label)).toContain('强化学习 · 深度强化学习');
  });

  it('lists the taxonomy in the member’s language', async () => {
    const reply = await app.registry.runText(zh, 'topic', '');
    expect(heading(reply)?.text).toBe('研究方向');
    const lists = reply.blocks.filter((b) => b.kind === 'list') as Array<{ heading: string; items: Array<{ text: string }> }>;
    expect(lists[0]).toMatchObject({ heading: '深度学习' });
    expect(lists[0]!.items[0]!.text).toBe('大语言模型');
    expect(lists.map((l) => l.heading)).toContain('计算机视觉');
  });

  it('autocompletes topics typed in either language, named in the member’s', () => {
    expect(app.registry.autocomplete(zh, 'topic', 'name', '大语')[0]).toEqual({ name: '深度学习 · 大语言模型', value: 'deep-learning/large-language-models' });
    expect(app.registry.autocomplete(en, 'topic', 'name', '大语')[0]).toEqual({ name: 'Deep Learning · Large Language Models', value: 'deep-learning/large-language-models' });
    expect(app.registry.autocomplete(zh, 'topic', 'name', 'large lang')[0]?.name).toBe('深度学习 · 大语言模型');
  });
});

describe('/paper in Chinese', () => {
  it('/paper 强化学习 returns reinforcement-learning papers, saying how it was read', async () => {
    const reply = await app.registry.runText(zh, 'paper', '强化学习');
    const found = cards(reply);
    expect(found.length).toBeGreaterThanOrEqual(5);
    for (const card of found.slice(0, 5)) {
      const rl = /reinforcement|policy|q-learning/i.test(card.title) || card.topics.some((t) => t.startsWith('强化学习'));
      expect(rl, card.title).toBe(true);
    }
    expect(note(reply)).toContain('按以下英文检索：强化学习 → reinforcement learning。');
    expect(heading(reply)?.text).toBe('“强化学习”的检索结果');
  });

  it('/paper 扩散模型 视频生成 finds diffusion video-generation papers', async () => {
    const reply = await app.registry.runText(zh, 'paper', '扩散模型 视频生成');
    expect(cards(reply)[0]?.title).toBe('Video Diffusion Models');
    expect(note(reply)).toContain('扩散模型 → diffusion model；视频生成 → video generation');
  });

  it('reads mixed Chinese and English, and the note is in the member’s language', async () => {
    const mixed = await app.registry.runText(en, 'paper', '基于Transformer的目标检测');
    expect(cards(mixed).map((c) => c.title)).toContain('Faster R-CNN: Towards Real-Time Object Detection with Region Proposal Networks');
    expect(note(mixed)).toContain('Read as 目标检测 → object detection.');
    const terms = await app.registry.runText(zh, 'paper', 'diffusion 视频生成');
    expect(cards(terms)[0]?.title).toBe('Video Diffusion Models');
  });

  it('says which Chinese it could not read, and asks for English when it read none', async () => {
    const some = await app.registry.runText(zh, 'paper', '知识蒸馏 量子纠缠');
    expect(cards(some)[0]?.title).toBe('Distilling the Knowledge in a Neural Network');
    expect(note(some)).toContain('术语表中没有，已略去：量子纠缠。');
    const none = await app.registry.runText(zh, 'paper', '量子纠缠');
    expect(none.ephemeral).toBe(true);
    expect(none.fallback).toContain('“量子纠缠”中没有找到已知术语：请试试英文关键词');
  });

  it('shows topic labels and link names in the member’s language; paper text as published', async () => {
    const [card] = cards(await app.registry.runText(zh, 'paper', 'LoRA: Low-Rank Adaptation of Large Language Models'));
    expect(card?.title).toBe('LoRA: Low-Rank Adaptation of Large Language Models');
    expect(card?.authors[0]).toBe('Edward J. Hu');
    expect(card?.topics).toContain('深度学习 · 大语言模型');
    expect(card?.links.map((l) => l.label)).toEqual(['PDF', '代码']);
    const [english] = cards(await app.registry.runText(en, 'paper', 'LoRA: Low-Rank Adaptation of Large Language Models'));
    expect(english?.topics).toContain('Deep Learning · Large Language Models');
    expect(english?.links.map((l) => l.label)).toEqual(['PDF', 'Code']);
  });

  it('suggests titles for Chinese terms as they are typed', () => {
    const choices = app.registry.autocomplete(zh, 'paper', 'query', '扩散模型');
    expect(choices.some((c) => /diffusion/i.test(c.name))).toBe(true);
  });

  it('pages in the language the results were written in, for whoever clicks', async () => {
    const first = await app.registry.runText(zh, 'paper', '学习');
    const next = first.buttons![0]!.find((b) => b.id === 'next')!;
    expect(next.label).toBe('下一页 ▶');
    const second = await app.registry.act(en, next.action!);
    expect(second.locale).toBe('zh-CN');
    expect(second.buttons![0]!.find((b) => b.id === 'prev')!.label).toBe('◀ 上一页');
  });
});

describe('Traditional Chinese', () => {
  it('reads what a reader in Taiwan or Hong Kong types as the Simplified terms and names', async () => {
    const tw = app.context('discord', { id: 'u-tw' }, { locale: 'zh-TW', channel: { id: 'c1' } });
    expect(heading(await app.registry.runText(tw, 'topic', '大語言模型'))?.text).toBe('深度学习 · 大语言模型');
    const rl = await app.registry.runText(tw, 'paper', '強化學習');
    expect(note(rl)).toContain('强化学习 → reinforcement learning');
    expect(cards(rl).length).toBeGreaterThanOrEqual(5);
    expect(cards(await app.registry.runText(tw, 'paper', '擴散模型 視訊生成'))[0]?.title).toBe('Video Diffusion Models');
  });
});

describe('/help in Chinese', () => {
  it('explains the commands and the syntax in Chinese, commands as typed', async () => {
    const reply = await app.registry.runText(zh, 'help', '');
    expect(heading(reply)?.text).toBe('Paper Scout 论文检索');
    const lists = reply.blocks.filter((b) => b.kind === 'list') as Array<{ heading: string; items: Array<{ text: string; detail?: string }> }>;
    expect(lists[0]!.items[0]).toEqual({ text: '/paper：按标题、作者或关键词检索论文', detail: expect.stringContaining('/paper 扩散模型 视频生成') });
    expect(lists[1]!.items.at(-1)).toEqual({ text: '扩散模型 视频生成', detail: expect.stringContaining('术语表') });
  });
});
