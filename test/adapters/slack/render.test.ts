import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLOCKS_JSON_MAX, MAX_BLOCKS } from '../../../adapters/slack/limits.js';
import { fallbackText, linkUrl, mrkdwn, plainText, segmentsMrkdwn } from '../../../adapters/slack/mrkdwn.js';
import { cut } from '../../../src/text.js';
import { TRUNCATED_NOTE, renderReply, renderUnfurl, renderUnfurlReply } from '../../../adapters/slack/render.js';
import { messages } from '../../../src/i18n/index.js';
import type { Block, Button, MenuChoice, PaperCard, Reply } from '../../../src/reply.js';
import { limitViolations, mrkdwnViolations } from './blockKitLimits.js';

const card: PaperCard = {
  id: 'arxiv:1706.03762',
  doc: 1,
  title: 'Attention Is All You Need',
  url: 'https://arxiv.org/abs/1706.03762',
  authors: ['Ashish Vaswani', 'Noam Shazeer', 'Niki Parmar', 'Jakob Uszkoreit', 'Llion Jones', 'Aidan N. Gomez', 'Lukasz Kaiser'],
  venue: 'NeurIPS',
  year: 2017,
  status: 'Oral',
  topics: ['Deep Learning · Attention Mechanisms and Transformers', 'NLP · Machine Translation'],
  snippet: [{ text: 'We propose the ' }, { text: 'Transformer', match: true }, { text: ', built on ' }, { text: 'attention', match: true }, { text: ' alone.' }],
  links: [
    { kind: 'pdf', label: 'PDF', url: 'https://arxiv.org/pdf/1706.03762' },
    { kind: 'code', label: 'Code', url: 'https://github.com/x/y?a=1&b=2' },
    { kind: 'project', label: 'Evil', url: 'javascript:alert(1)' },
  ],
  position: 1,
};

const results: Reply = {
  fallback: 'Papers for “attention”: 1. Attention Is All You Need',
  blocks: [
    { kind: 'heading', text: 'Papers for “attention”' },
    { kind: 'note', text: '1 paper · page 1 of 2' },
    { kind: 'paper', paper: card },
  ],
  buttons: [
    [
      { label: '◀ Prev', action: 'paper:page:abc:-1', disabled: true },
      { label: 'Next ▶', action: 'paper:page:abc:1' },
    ],
  ],
  menu: { placeholder: 'Open a paper…', choices: [{ label: '1. Attention Is All You Need', action: 'paper:open:1:abc:0', description: 'Ashish Vaswani · NeurIPS · 2017' }] },
  shareable: true,
};

const mrk = (text: string) => ({ type: 'mrkdwn', text, verbatim: true });
const plain = (text: string) => ({ type: 'plain_text', text });

describe('renderReply', () => {
  it('renders a results page exactly: header, note, card with links and bold matches, buttons, menu, Share', () => {
    expect(renderReply(results, { share: 'run:paper:attention' })).toEqual({
      text: 'Papers for “attention”: 1. Attention Is All You Need',
      blocks: [
        { type: 'header', text: plain('Papers for “attention”') },
        { type: 'context', elements: [mrk('1 paper · page 1 of 2')] },
        {
          type: 'section',
          text: mrk(
            '*<https://arxiv.org/abs/1706.03762|1. Attention Is All You Need>*\n' +
              'Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, Aidan N. Gomez et al.\n' +
              'NeurIPS · 2017 · Oral\n' +
              'We propose the *Transformer*\u200b, built on *attention* alone.',
          ),
        },
        {
          type: 'context',
          elements: [
            mrk('Deep Learning · Attention Mechanisms and Transformers | NLP · Machine Translation'),
            mrk('<https://arxiv.org/pdf/1706.03762|PDF> · <https://github.com/x/y?a=1&amp;b=2|Code>'),
          ],
        },
        {
          type: 'actions',
          elements: [
            { type: 'button', action_id: 'ps:act:1', text: plain('Next ▶'), value: 'paper:page:abc:1' },
            {
              type: 'static_select',
              action_id: 'ps:menu',
              placeholder: plain('Open a paper…'),
              options: [{ text: plain('1. Attention Is All You Need'), value: 'paper:open:1:abc:0', description: plain('Ashish Vaswani · NeurIPS · 2017') }],
            },
            { type: 'button', action_id: 'ps:share', text: plain('Share in channel'), value: 'run:paper:attention', style: 'primary' },
          ],
        },
      ],
    });
  });

  it('renders a detail view exactly: all authors, the abstract, similar papers, Back; a shared copy says who shared it', () => {
    const detail: Reply = {
      fallback: 'Attention Is All You Need (NeurIPS 2017)',
      blocks: [
        { kind: 'paper', paper: { ...card, position: undefined, snippet: undefined, topics: [], links: [], abstract: 'We propose the Transformer.\n\nIt is fast & good.' } },
        { kind: 'list', heading: 'Similar papers', items: [{ text: 'BERT', url: 'https://arxiv.org/abs/1810.04805', detail: 'NAACL 2019', action: 'paper:open:2' }] },
      ],
      buttons: [[{ label: '◀ Back to results', action: 'paper:page:abc:0' }]],
      menu: { placeholder: 'Open a similar paper…', choices: [{ label: 'BERT', action: 'paper:open:2' }] },
      shareable: true,
    };
    expect(renderReply(detail, { sharedBy: 'U0ALICE' })).toEqual({
      text: 'Attention Is All You Need (NeurIPS 2017)',
      blocks: [
        {
          type: 'section',
          text: mrk(
            '*<https://arxiv.org/abs/1706.03762|Attention Is All You Need>*\n' +
              'Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, Aidan N. Gomez, Lukasz Kaiser\n' +
              'NeurIPS · 2017 · Oral',
          ),
        },
        { type: 'section', text: mrk('We propose the Transformer.  It is fast &amp; good.') },
        { type: 'section', text: mrk('*Similar papers*\n• <https://arxiv.org/abs/1810.04805|BERT> — NAACL 2019') },
        { type: 'context', block_id: 'ps:shared-by', elements: [mrk('Shared by <@U0ALICE>')] },
        {
          type: 'actions',
          elements: [
            { type: 'button', action_id: 'ps:act:0', text: plain('◀ Back to results'), value: 'paper:page:abc:0' },
            { type: 'static_select', action_id: 'ps:menu', placeholder: plain('Open a similar paper…'), options: [{ text: plain('BERT'), value: 'paper:open:2' }] },
          ],
        },
      ],
    });
  });

  it('renders a count with venue, year and status', () => {
    const counted = renderReply({ ...results, blocks: [{ kind: 'paper', paper: { ...card, citedBy: { count: 123456, text: 'cited by 123k' } } }] });
    expect((counted.blocks[0] as { text: { text: string } }).text.text).toContain('\nNeurIPS · 2017 · Oral · cited by 123k\n');
  });

  it('renders an opened paper’s count, and its references and citing papers as sections before the similar papers', () => {
    const hostile = '@everyone <b>Markdown</b> **bold** `code` <@123> <!channel> [link](http://evil.example)';
    const site = 'https://papers.lab.example';
    const opened: Reply = {
      fallback: 'Attention Is All You Need (NeurIPS 2017)',
      blocks: [
        { kind: 'paper', paper: { ...card, authors: ['Ashish Vaswani'], position: undefined, snippet: undefined, topics: [], links: [], abstract: 'We propose the Transformer.', citedBy: { count: 123456, text: 'cited by 123,456' } } },
        {
          kind: 'list',
          heading: 'References in the library (6)',
          items: [
            { text: 'Deep Residual Learning for Image Recognition', detail: 'CVPR 2016 · cited by 201k', action: 'paper:open:11', url: `${site}/paper/arxiv%3A1512.03385` },
            { text: 'All 6 references in the library ↗', url: `${site}/paper/arxiv%3A1706.03762/references` },
          ],
        },
        { kind: 'list', heading: 'Cited by, in the library (1)', items: [{ text: hostile, detail: 'HOSTILE 2024 · cited by 50k', action: 'paper:open:29' }] },
        { kind: 'list', heading: 'Similar papers', items: [{ text: 'Graph Attention Networks', detail: 'ICLR 2018', action: 'paper:open:26' }] },
      ],
      menu: {
        placeholder: 'Open a paper…',
        choices: [
          { label: 'Deep Residual Learning for Image Recognition', action: 'paper:open:11' },
          { label: hostile, action: 'paper:open:29' },
          { label: 'Graph Attention Networks', action: 'paper:open:26' },
        ],
      },
      shareable: true,
    };
    expect(renderReply(opened)).toEqual({
      text: 'Attention Is All You Need (NeurIPS 2017)',
      blocks: [
        { type: 'section', text: mrk('*<https://arxiv.org/abs/1706.03762|Attention Is All You Need>*\nAshish Vaswani\nNeurIPS · 2017 · Oral · cited by 123,456') },
        { type: 'section', text: mrk('We propose the Transformer.') },
        {
          type: 'section',
          text: mrk(
            '*References in the library (6)*\n' +
              `• <${site}/paper/arxiv%3A1512.03385|Deep Residual Learning for Image Recognition> — CVPR 2016 · cited by 201k\n` +
              `• <${site}/paper/arxiv%3A1706.03762/references|All 6 references in the library ↗>`,
          ),
        },
        { type: 'section', text: mrk('*Cited by, in the library (1)*\n• @everyone &lt;b&gt;Markdown&lt;/b&gt; ∗∗bold∗∗ ˋcodeˋ &lt;@123&gt; &lt;!channel&gt; [link](http://evil.example) — HOSTILE 2024 · cited by 50k') },
        { type: 'section', text: mrk('*Similar papers*\n• Graph Attention Networks — ICLR 2018') },
        {
          type: 'actions',
          elements: [
            {
              type: 'static_select',
              action_id: 'ps:menu',
              placeholder: plain('Open a paper…'),
              options: [
                { text: plain('Deep Residual Learning for Image Recognition'), value: 'paper:open:11' },
                { text: plain('@everyone <b>Markdown</b> **bold** `code` <@123> <!channel> [link](http://…'), value: 'paper:open:29' },
                { text: plain('Graph Attention Networks'), value: 'paper:open:26' },
              ],
            },
          ],
        },
      ],
    });
  });

  it('keeps an opened paper with a long abstract and fifteen long listed titles within the Block Kit limits, its card and first list first', () => {
    const long = '@everyone <b>x</b> & **y** '.repeat(40);
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ text: long, detail: `VENUE 2024 · cited by ${i}k`, action: `paper:open:${i}`, url: `https://papers.lab.example/paper/${'x'.repeat(300)}${i}` }));
    const reply: Reply = {
      fallback: 'x',
      blocks: [
        { kind: 'paper', paper: { ...card, abstract: long.repeat(10), citedBy: { count: 1, text: 'cited by 1' } } },
        { kind: 'list', heading: 'References in the library (600)', items: [...items(5), { text: 'All 600 references in the library ↗', url: 'https://papers.lab.example/paper/x/references' }] },
        { kind: 'list', heading: 'Cited by, in the library (9000)', items: items(5) },
        { kind: 'list', heading: 'Similar papers', items: items(5) },
      ],
      menu: { placeholder: 'Open a paper…', choices: items(15).map((i) => ({ label: i.text, action: i.action })) },
      shareable: true,
    };
    const message = renderReply(reply, { share: 'run:paper:x' });
    expect(limitViolations(message)).toEqual([]);
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('cited by 1');
    expect(text).toContain('*References in the library (600)*');
    expect(message.blocks.at(-1)).toMatchObject({ type: 'actions' });
  });

  it('renders a message, a divider and list items whose actions no button or menu offers', () => {
    const reply: Reply = {
      fallback: 'Pick one',
      blocks: [
        { kind: 'text', text: 'Several topics match "rl". Pick one:' },
        { kind: 'divider' },
        { kind: 'list', items: [{ text: 'Deep RL', action: 'topic:show:rl/deep' }, { text: 'Bandits' }] },
      ],
      ephemeral: true,
    };
    expect(renderReply(reply)).toEqual({
      text: 'Pick one',
      blocks: [
        { type: 'section', text: mrk('Several topics match "rl". Pick one:') },
        { type: 'divider' },
        { type: 'section', text: mrk('• Deep RL\n• Bandits') },
        { type: 'actions', elements: [{ type: 'button', action_id: 'ps:act:0', text: plain('Deep RL'), value: 'topic:show:rl/deep' }] },
      ],
    });
  });

  it('never lets a mention id that is not a Slack user id into "Shared by"', () => {
    expect(renderReply(results, { sharedBy: '<!channel>' }).blocks.some((b) => b.block_id === 'ps:shared-by')).toBe(false);
  });

  it('gives up card extras before cards, and cards before buttons, to stay within the size budget', () => {
    const big = (i: number): Block => ({
      kind: 'paper',
      paper: {
        ...card,
        title: `Paper ${i} ${'&'.repeat(400)}`,
        authors: Array.from({ length: 300 }, (_, k) => `<Author ${k}>`),
        topics: Array.from({ length: 40 }, (_, k) => `Topic <${k}>`),
        snippet: [{ text: '<&>'.repeat(500) }],
        links: Array.from({ length: 8 }, (_, k) => ({ kind: 'project' as const, label: `L${k}`, url: `https://example.com/${'a'.repeat(700)}/${k}` })),
      },
    });
    const message = renderReply({ ...results, blocks: [results.blocks[0]!, ...[1, 2, 3, 4, 5].map(big)] }, { share: 'x' });
    expect(limitViolations(message)).toEqual([]);
    const text = JSON.stringify(message.blocks);
    for (const i of [1, 2, 3, 4, 5]) expect(text).toContain(`Paper ${i} &amp;`);
    expect(message.blocks.at(-1)!.type).toBe('actions');

    const many = renderReply({ ...results, blocks: Array.from({ length: 80 }, (_, i): Block => ({ kind: 'text', text: `line ${i}` })) }, { share: 'x' });
    expect(many.blocks.length).toBeLessThanOrEqual(MAX_BLOCKS);
    expect(many.blocks.at(-2)).toEqual({ type: 'context', elements: [mrk(TRUNCATED_NOTE)] });
    expect(many.blocks.at(-1)!.type).toBe('actions');
    expect(limitViolations(many)).toEqual([]);
  });
});

describe('renderUnfurl', () => {
  it('renders a compact card exactly', () => {
    expect(renderUnfurl({ ...card, position: undefined })).toEqual([
      {
        type: 'section',
        text: mrk(
          '*<https://arxiv.org/abs/1706.03762|Attention Is All You Need>*\n' +
            'Ashish Vaswani, Noam Shazeer, Niki Parmar et al.\n' +
            'NeurIPS · 2017 · Oral\n' +
            'We propose the *Transformer*\u200b, built on *attention* alone.',
        ),
      },
      { type: 'context', elements: [mrk('Deep Learning · Attention Mechanisms and Transformers | NLP · Machine Translation')] },
    ]);
  });
});

describe('renderUnfurlReply', () => {
  it("speaks the reply's language, down to the authors' et al.", () => {
    const reply = (locale: string): Reply => ({ locale, fallback: card.title, blocks: [{ kind: 'paper', paper: card }] });
    const authors = (locale: string) => (renderUnfurlReply(reply(locale))[0] as { text: { text: string } }).text.text.split('\n')[1];
    expect(authors('en')).toBe(messages('en').t('paper.authorsMore', { authors: 'Ashish Vaswani, Noam Shazeer, Niki Parmar' }));
    expect(authors('zh-CN')).toBe(messages('zh-CN').t('paper.authorsMore', { authors: 'Ashish Vaswani, Noam Shazeer, Niki Parmar' }));
    expect(authors('zh-CN')).not.toBe(authors('en'));
  });
});

describe('mrkdwn text', () => {
  it.each([
    ['<!channel> hi', '&lt;!channel&gt; hi'],
    ['<@U123> & <#C1|x>', '&lt;@U123&gt; &amp; &lt;#C1|x&gt;'],
    ['*bold* _it_ ~st~ `code` ```block```', '∗bold∗ ˍitˍ ∼st∼ ˋcodeˋ ˋˋˋblockˋˋˋ'],
    ['> quoted', '\u00ad&gt; quoted'],
    ['a\nb\t\tc\u202e\u0000d', 'a b  cd'],
    ['&amp;', '&amp;amp;'],
    ['<https://evil.example|click>', '&lt;https://evil.example|click&gt;'],
  ])('mrkdwn(%j) shows the text literally', (input, expected) => {
    expect(mrkdwn(input, 1000)).toBe(expected);
    expect(mrkdwnViolations(mrkdwn(input, 1000))).toEqual([]);
  });

  it('cuts escaped text to its limit without splitting an entity or a surrogate pair', () => {
    expect(mrkdwn('&&&&', 12)).toBe('&amp;&amp;…');
    expect(mrkdwn('😀😀😀', 4)).toBe('😀…');
    expect(cut('Attention Is All You Need', 10)).toBe('Attention…');
    expect(plainText('  a\nb  ', 10)).toBe('a b');
    expect(fallbackText('A <b> & *c*', 100)).toBe('A &lt;b&gt; &amp; *c*');
  });

  it('bolds matches, with zero-width spaces where a match touches other text, and cuts whole', () => {
    expect(segmentsMrkdwn([{ text: 'U-' }, { text: 'Net', match: true }, { text: '-based' }], 100)).toBe('U-\u200b*Net*\u200b-based');
    expect(segmentsMrkdwn([{ text: '…' }, { text: 'diffusion', match: true }, { text: ' models' }], 100)).toBe('…\u200b*diffusion* models');
    expect(segmentsMrkdwn([{ text: ' a ' }, { text: '*x_*', match: true }, { text: ' ' }], 100)).toBe('a *∗xˍ∗*');
    expect(segmentsMrkdwn([{ text: 'aaaa ' }, { text: 'bbbb', match: true }, { text: ' cccc' }], 8)).toBe('aaaa…');
    expect(segmentsMrkdwn([{ text: 'aaaa ' }, { text: 'bbbb', match: true }, { text: ' cccc' }], 14)).toBe('aaaa *bbbb* c…');
    expect(segmentsMrkdwn([{ text: 'a' }, { text: '\u0000', match: true }], 14)).toBe('a');
  });

  it.each([
    ['https://arxiv.org/abs/1706.03762', 'https://arxiv.org/abs/1706.03762'],
    ['https://x.org/?a=1&b=2', 'https://x.org/?a=1&amp;b=2'],
    ['javascript:alert(1)', undefined],
    ['data:text/html,hi', undefined],
    ['https://x.org/a|b', undefined],
    ['https://x.org/a>b', undefined],
    ['https://x.org/a b', undefined],
    ['https://x.org/\u202e', undefined],
    [`https://x.org/${'a'.repeat(900)}`, undefined],
    ['ftp://x.org/a', undefined],
  ])('linkUrl(%j) is %j', (url, expected) => {
    expect(linkUrl(url)).toBe(expected);
  });
});

// ── Properties: any reply, however hostile, renders within every limit ─────────────────────
const UNITS = ['<', '>', '&', '*', '_', '~', '`', '|', '\n', '\u0000', '\u202e', '<!channel>', '<@U1>', '&amp;', 'a', ' ', '😀', 'é', '> '];
const text = (maxLength: number) => fc.string({ unit: fc.oneof(fc.constantFrom(...UNITS), fc.string({ maxLength: 3 })), maxLength });
const url = fc.oneof(
  fc.constant('https://example.com/a?b=1&c=2'),
  fc.integer({ min: 0, max: 4000 }).map((n) => `https://example.com/${'a'.repeat(n)}`),
  text(60).map((t) => `https://example.com/${t}`),
  text(30),
);
const segments = fc.array(fc.record({ text: text(300), match: fc.boolean() }), { maxLength: 30 });
const paper: fc.Arbitrary<PaperCard> = fc.record({
  id: fc.string({ maxLength: 20 }),
  doc: fc.nat(),
  title: text(2000),
  url: fc.option(url, { nil: undefined }),
  authors: fc.array(text(100), { maxLength: 200 }),
  venue: text(300),
  year: fc.option(fc.integer({ min: -1, max: 3000 }), { nil: null }),
  status: text(200),
  citedBy: fc.option(fc.record({ count: fc.nat(), text: text(300) }), { nil: undefined }),
  topics: fc.array(text(120), { maxLength: 30 }),
  snippet: fc.option(segments, { nil: undefined }),
  abstract: fc.option(text(10_000), { nil: undefined }),
  links: fc.array(fc.record({ kind: fc.constantFrom('page' as const, 'pdf' as const, 'code' as const), label: text(100), url }), { maxLength: 10 }),
  position: fc.option(fc.nat(10_000), { nil: undefined }),
});
const block: fc.Arbitrary<Block> = fc.oneof(
  text(500).map((t): Block => ({ kind: 'heading', text: t })),
  fc.oneof(text(5000), segments).map((t): Block => ({ kind: 'text', text: t })),
  text(3000).map((t): Block => ({ kind: 'note', text: t })),
  fc.constant<Block>({ kind: 'divider' }),
  paper.map((p): Block => ({ kind: 'paper', paper: p })),
  fc
    .record({
      heading: fc.option(text(300), { nil: undefined }),
      items: fc.array(fc.record({ text: text(300), url: fc.option(url, { nil: undefined }), detail: fc.option(text(300), { nil: undefined }), action: fc.option(text(120), { nil: undefined }) }), { maxLength: 40 }),
    })
    .map((l): Block => ({ kind: 'list', ...l })),
);
const handle = fc.string({ minLength: 0, maxLength: 300 });
const buttonArb: fc.Arbitrary<Button> = fc.record({
  label: text(200),
  action: fc.option(handle, { nil: undefined }),
  url: fc.option(url, { nil: undefined }),
  style: fc.option(fc.constantFrom('primary' as const, 'secondary' as const, 'danger' as const), { nil: undefined }),
  disabled: fc.option(fc.boolean(), { nil: undefined }),
});
const choice: fc.Arbitrary<MenuChoice> = fc.record({ label: text(200), action: handle, description: fc.option(text(200), { nil: undefined }) });
const reply: fc.Arbitrary<Reply> = fc.record({
  fallback: text(6000),
  blocks: fc.array(block, { maxLength: 70 }),
  buttons: fc.option(fc.array(fc.array(buttonArb, { maxLength: 30 }), { maxLength: 4 }), { nil: undefined }),
  menu: fc.option(fc.record({ placeholder: text(300), choices: fc.array(choice, { maxLength: 120 }) }), { nil: undefined }),
  shareable: fc.boolean(),
});

describe('properties', () => {
  it('every rendered reply holds every Block Kit limit and shows its text literally', () => {
    fc.assert(
      fc.property(reply, fc.option(fc.string({ maxLength: 2500 }), { nil: undefined }), fc.constantFrom(undefined, 'U0ALICE'), (r, share, sharedBy) => {
        const message = renderReply(r, { ...(share !== undefined && { share }), ...(sharedBy && { sharedBy }) });
        expect(limitViolations(message)).toEqual([]);
        expect(JSON.stringify(message.blocks).length).toBeLessThanOrEqual(BLOCKS_JSON_MAX);
      }),
      { numRuns: 300 },
    );
  });

  it('every unfurl card holds the limits', () => {
    fc.assert(
      fc.property(paper, (p) => {
        expect(limitViolations({ text: 'x', blocks: renderUnfurl(p) })).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it('mrkdwn() stays within its limit, escapes everything, and reads back as the text', () => {
    const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/\u00ad/g, '');
    fc.assert(
      fc.property(text(400), fc.integer({ min: 1, max: 3000 }), (s, max) => {
        const out = mrkdwn(s, max);
        expect(out.length).toBeLessThanOrEqual(max);
        expect(mrkdwnViolations(out)).toEqual([]);
        const plainInput = s.replace(/[*_~`]/g, 'x').replace(/[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g, '');
        const expected = plainInput.replace(/\s/g, ' ').replace(/ {4,}/g, '   ').trim();
        if (!out.endsWith('…')) expect(unescape(mrkdwn(plainInput, max))).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });
});
