/**
 * With PUBLIC_URL set, replies lead to the search site: a /paper reply carries "All N results ↗"
 * (the search on the site) and each card's title leads to the paper's page there, as do a
 * digest's papers; without it, cards lead to the papers' own pages and there is no such link.
 * Checked on the neutral reply and as Discord and Slack render it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderComponents } from '../../adapters/discord/components.js';
import { renderMessage } from '../../adapters/discord/render.js';
import { renderReply } from '../../adapters/slack/render.js';
import { renderDigest } from '../../src/digest/compose.js';
import type { Block, Reply } from '../../src/reply.js';
import type { Subscription } from '../../src/store/digests.js';
import { siteLinks } from '../../src/site/links.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const SITE = 'https://papers.lab.example';
let linked: TestApp;
let plain: TestApp;

beforeAll(async () => {
  [linked, plain] = await Promise.all([createTestApp({ env: { PUBLIC_URL: `${SITE}/` } }), createTestApp()]);
});
afterAll(async () => {
  await Promise.all([linked.dispose(), plain.dispose()]);
});

const cards = (reply: Reply) => reply.blocks.flatMap((b: Block) => (b.kind === 'paper' ? [b.paper] : []));

describe('with PUBLIC_URL', () => {
  it('a /paper reply links every result on the site, and each title to its page there', async () => {
    const reply = await linked.registry.runText(linked.context('slack', { id: 'u1' }), 'paper', 'learning');
    const all = reply.buttons?.flat().find((b) => b.id === 'all');
    const total = (await linked.library.search('learning', { limit: 200 })).total;
    expect(all).toEqual({ id: 'all', label: `All ${total} results ↗`, url: `${SITE}/search?q=learning` });
    const first = cards(reply)[0]!;
    expect(first.url).toBe(`${SITE}/paper/${encodeURIComponent(first.id)}`);

    const discord = renderMessage(reply);
    expect(discord.embeds?.[0]?.url).toBe(first.url);
    expect(JSON.stringify(renderComponents(reply))).toContain(`"url":"${SITE}/search?q=learning"`);
    expect(JSON.stringify(renderReply(reply).blocks)).toContain(`"url":"${SITE}/search?q=learning"`);
    expect(JSON.stringify(renderReply(reply).blocks)).toContain(`<${first.url}|`);
  });

  it("keeps a paper's landing page among its links", async () => {
    const reply = await linked.registry.runText(linked.context('slack', { id: 'u1' }), 'paper', 'Attention Is All You Need');
    const card = cards(reply).find((c) => c.title === 'Attention Is All You Need')!;
    expect(card.url).toBe(`${SITE}/paper/arxiv%3A1706.03762`);
    expect(card.links[0]).toEqual({ kind: 'page', label: 'Page', url: 'https://arxiv.org/abs/1706.03762' });
  });

  it("a digest's papers lead to their pages on the site", async () => {
    const ids = ['arxiv:1706.03762', 'arxiv:2006.11239'];
    const sub: Subscription = {
      id: 7, platform: 'slack', workspace: 'T1', channel: 'C1', query: 'attention', label: 'attention', time: '08:00', timezone: 'UTC',
      days: 'daily', count: 5, fill: false, createdBy: 'U1', createdAt: '2026-01-01T00:00:00Z', status: 'active',
    } as Subscription;
    const slot = new Date('2026-03-02T08:00:00Z');
    const [part] = await renderDigest({ library: linked.library, states: linked.states, now: slot }, sub, { papers: ids, fill: false, since: '2026-03-01T08:00:00Z' }, slot);
    expect(cards(part!.reply).map((c) => c.url)).toEqual(ids.map((id) => siteLinks(SITE).paper(id)));
  });
});

describe('without PUBLIC_URL', () => {
  it('cards lead to the papers’ own pages and there is no link to a site', async () => {
    const reply = await plain.registry.runText(plain.context('slack', { id: 'u1' }), 'paper', 'diffusion');
    expect(reply.buttons?.flat().some((b) => b.url !== undefined)).toBe(false);
    const ddpm = cards(reply).find((c) => c.title === 'Denoising Diffusion Probabilistic Models')!;
    expect(ddpm.url).toBe('https://arxiv.org/abs/2006.11239');
    expect(ddpm.links.map((l) => l.kind)).toEqual(['pdf', 'code']);
  });
});
