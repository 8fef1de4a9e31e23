import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderText, sanitize } from '../../../adapters/terminal/render.js';
import { runTerminal } from '../../../adapters/terminal/terminal.js';
import type { Reply } from '../../../src/reply.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { putFixtureCitations } from '../../helpers/citations.js';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.dispose());

async function session(lines: string[], options: { directory?: string } = {}): Promise<string> {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const done = runTerminal(app, { input, output, interactive: false, ...options });
  input.end(lines.map((l) => `${l}\n`).join(''));
  await done;
  return text;
}

describe('terminal adapter', () => {
  it('answers commands typed as in chat, one a line, and exits at the end of input', async () => {
    const out = await session(['/paper diffusion', '/help']);
    expect(out).toContain('Papers for “diffusion”');
    expect(out).toContain('Denoising Diffusion Probabilistic Models');
    expect(out).toContain('**diffusion**');
    expect(out).toContain('/paper: Search papers by title, author or keywords');
  });

  it('turns the last reply’s buttons into commands', async () => {
    const out = await session(['/paper learning', '/next', '/open 6', '/back']);
    expect(out).toMatch(/page 2 of/);
    expect(out).toContain('Similar papers');
    expect(out.match(/page 2 of/g)?.length).toBe(2);
  });

  it('opens results by the numbers printed beside them, on every page, as the hint says', async () => {
    const out = await session(['/paper learning', '/next', '/open 6', '/back', '/open 1', '/open 06']);
    const [, page2, detail, back, ...rest] = out.split(/→ [^\n]*\n/);
    const sixth = /^6\. (.+)$/m.exec(page2!)?.[1];
    expect(sixth).toBeDefined();
    expect(out).toMatch(/→ \/prev {3}\/next {3}\/open 6-\d+ {3}\/save 6-\d+\n/);
    expect(out).not.toContain('/open 1-5\n\nPapers for');
    // The detail view of result 6, not of result 1 of the page.
    expect(detail!.trimStart().startsWith(`${sixth}\n`)).toBe(true);
    expect(back).toContain(`6. ${sixth}`);
    expect(rest.join('')).toMatch(/^There is no result 1 here: open one of the numbers shown, with \/open 6-\d+\.$/m);
    expect(out).not.toContain('There is nothing to page or open yet');
    expect(out.split(`\n${sixth}\n`).length).toBe(3); // /open 06 is /open 6
  });

  it('numbers the similar papers as /open takes them, and says when a paging command does nothing', async () => {
    const out = await session(['/paper learning', '/open 2', '/next']);
    const similar = out.split('Similar papers')[1]!;
    expect(similar).toMatch(/^ {2}1\. .+$/m);
    expect(similar).toMatch(/→ \/back {3}\/save {3}\/open 1(-\d)?\n/);
    expect(out).toMatch(/\/next does nothing after the last reply\. Try \/back {3}\/save {3}\/open 1(-\d)?\./);
  });

  it('saves results by their numbers, lists them with /library mine, and writes an export to the directory', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'paperscout-terminal-'));
    try {
      const out = await session(['/paper diffusion', '/save 2', '/save 9', '/library mine', '/library export format:bibtex'], { directory });
      const second = /^2\. (.+)$/m.exec(out)?.[1];
      expect(second).toBeDefined();
      expect(out).toContain('Saved to your library · 1 paper');
      expect(out).toMatch(/^There is no result 9 here: save one of the numbers shown, with \/save 1-\d\.$/m);
      const library = out.split('Your library')[1]!;
      expect(library).toContain(`1. ${second}`);
      expect(library).toMatch(/^ {3}Saved /m);
      const path = join(directory, 'paperscout-library.bib');
      expect(out).toContain(`Wrote ${path}.`);
      expect(readFileSync(path, 'utf8')).toMatch(/^@\w+\{/);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('reads the first 1,000 characters of a long query (a pasted abstract), saying so; refuses past 10,000', async () => {
    const pasted = 'Denoising diffusion probabilistic models generate images. '.repeat(90);
    expect(pasted.length).toBeGreaterThan(5000);
    const out = await session([`/paper ${pasted}`, `/paper ${'x'.repeat(10_001)}`]);
    expect(out).toContain('Denoising Diffusion Probabilistic Models');
    expect(out).toContain('Only the first 1,000 characters of the query were read.');
    expect(out).toContain('A query can be at most 10,000 characters.');
  });

  it('finds related work for a pasted paragraph with /paper like:, paged with /next (no dialog here)', async () => {
    const survey = 'Offline reinforcement learning learns policies from previously collected data with expectile regression. Graph attention lets nodes weigh their neighbours. Residual connections train very deep convolutional networks. Promptable segmentation masks transfer zero-shot.';
    const out = await session([`/paper like:${survey}`, '/next', '/paper like: ?!']);
    expect(out).toContain('Related work for “Offline reinforcement learning learns policies from previously collected data…”');
    expect(out).toMatch(/page 1 of \d[\s\S]*page 2 of \d/);
    expect(out).not.toContain('Paste a text');
    expect(out.replace(/\s+/g, ' ')).toContain('Paste the text to find related work for after like: an abstract or a paragraph, in English or Chinese.');
  });

  it('explains lines that are not commands', async () => {
    const out = await session(['hello', '/open 1', '/nosuch thing']);
    expect(out).toContain('Commands start with a slash');
    expect(out).toContain('There is nothing to page or open yet');
    expect(out).toContain('There is no /nosuch command');
  });

  it('never lets paper text drive the terminal', async () => {
    const out = await session(['/paper @everyone markdown']);
    expect(out).toContain('@everyone');
    // eslint-disable-next-line no-control-regex
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });
});

describe('renderText', () => {
  it('renders exactly, marks matches, and strips control characters', () => {
    const reply: Reply = {
      fallback: 'x',
      blocks: [
        { kind: 'heading', text: 'Papers for “gan”' },
        { kind: 'note', text: '1 paper · page 1 of 1' },
        {
          kind: 'paper',
          paper: {
            id: 'arxiv:1406.2661',
            doc: 7,
            title: 'Generative Adversarial Nets\u001b[2J',
            url: 'https://arxiv.org/abs/1406.2661',
            authors: ['A', 'B', 'C', 'D', 'E', 'F', 'G'],
            venue: 'NeurIPS',
            year: 2014,
            status: 'Poster',
            topics: ['Deep Learning · Generative Models and Autoencoders'],
            snippet: [{ text: 'Two-player ' }, { text: 'game', match: true }, { text: '.' }],
            links: [{ kind: 'pdf', label: 'PDF', url: 'https://arxiv.org/pdf/1406.2661' }],
            position: 1,
          },
        },
      ],
    };
    expect(renderText(reply, { ansi: false, width: 80 }, ['/open 1'])).toBe(
      [
        'Papers for “gan”',
        '1 paper · page 1 of 1',
        '',
        '1. Generative Adversarial Nets�[2J',
        '   A, B, C, D, E, F et al. · NeurIPS 2014 · Poster',
        '   Deep Learning · Generative Models and Autoencoders',
        '   Two-player **game**.',
        '   https://arxiv.org/abs/1406.2661 · PDF https://arxiv.org/pdf/1406.2661',
        '',
        '→ /open 1',
        '',
      ].join('\n'),
    );
  });

  it('renders a count with venue, year and status, and an opened paper’s lists numbered as /open takes them', () => {
    const reply: Reply = {
      fallback: 'x',
      blocks: [
        { kind: 'paper', paper: { id: 'a', doc: 1, title: 'Attention Is All You Need', authors: ['A'], venue: 'NeurIPS', year: 2017, status: 'Oral', citedBy: { count: 123456, text: 'cited by 123,456' }, topics: [], abstract: 'Attention.', links: [] } },
        {
          kind: 'list',
          heading: 'References in the library (6)',
          items: [
            { text: 'Deep Residual Learning\u001b[2J', detail: 'CVPR 2016 · cited by 201k', action: 'paper:open:11' },
            { text: 'All 6 references in the library ↗', url: 'https://papers.lab.example/paper/a/references' },
          ],
        },
        { kind: 'list', heading: 'Cited by, in the library (1)', items: [{ text: 'BERT', detail: 'NAACL 2019 · cited by 95k', action: 'paper:open:2' }] },
      ],
      menu: { placeholder: 'Open a paper…', choices: [{ label: 'Deep Residual Learning', action: 'paper:open:11' }, { label: 'BERT', action: 'paper:open:2' }] },
    };
    expect(renderText(reply, { ansi: false, width: 80 }, ['/open 1-2'])).toBe(
      [
        'Attention Is All You Need',
        '   A · NeurIPS 2017 · Oral · cited by 123,456',
        '   Attention.',
        '',
        'References in the library (6)',
        '  1. Deep Residual Learning�[2J',
        '    CVPR 2016 · cited by 201k',
        '  • All 6 references in the library ↗ <https://papers.lab.example/paper/a/references>',
        '',
        'Cited by, in the library (1)',
        '  2. BERT',
        '    NAACL 2019 · cited by 95k',
        '',
        '→ /open 1-2',
        '',
      ].join('\n'),
    );
  });

  it('sanitize replaces control and bidi characters', () => {
    expect(sanitize('a\u0007b\u202ec\u0000')).toBe('a�b�c�');
    expect(sanitize('line\nbreak')).toBe('line\nbreak');
  });
});

describe('terminal adapter in Chinese (LANG=zh_CN.UTF-8)', () => {
  it('answers in Chinese, with the same /next and /open commands', async () => {
    const zh = await createTestApp({ env: { LANG: 'zh_CN.UTF-8', LC_ALL: '' } });
    try {
      const input = new PassThrough();
      const output = new PassThrough();
      let out = '';
      output.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const done = runTerminal(zh, { input, output, interactive: false });
      input.end(['/paper learning', '/next', '/open 6', '/open 12', 'hello', '/topic 大语言模型'].map((l) => `${l}\n`).join(''));
      await done;
      expect(out).toContain('“learning”的检索结果');
      expect(out).toMatch(/第 2\/\d+ 页/);
      expect(out).toContain('相似论文');
      expect(out).toContain('→ /prev   /next');
      expect(out).toMatch(/这里没有第 12 条结果：请用 \/open 1(-\d)? 打开显示的编号之一。/);
      expect(out).toContain('命令以斜杠开头');
      expect(out).toContain('深度学习 · 大语言模型');
    } finally {
      await zh.dispose();
    }
  });
});

describe('terminal adapter with citation counts', () => {
  it('shows counts on results and an opened paper’s references and citing papers, which /open opens', async () => {
    const cited = await createTestApp();
    try {
      await putFixtureCitations(cited);
      const input = new PassThrough();
      const output = new PassThrough();
      let out = '';
      output.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const done = runTerminal(cited, { input, output, interactive: false });
      input.end(['/paper attention is all you need', '/open 1', '/open 1'].map((l) => `${l}\n`).join(''));
      await done;
      const [results, opened, reference] = out.split(/→ [^\n]*\n/);
      expect(results).toMatch(/^1\. Attention Is All You Need\n {3}.* · NeurIPS 2017 · Oral · cited by 123k$/m);
      expect(opened).toContain('NeurIPS 2017 · Oral · cited by 123,456');
      expect(opened).toContain('References in the library (6)\n  1. Deep Residual Learning for Image Recognition <https://arxiv.org/abs/1512.03385>\n    CVPR 2016 · cited by 201k\n');
      // A paper in two lists has one number.
      expect(opened).toMatch(/ {2}9\. Graph Attention Networks <[^>]+>\n {4}ICLR 2018 · cited by 11k\n[\s\S]*Similar papers[\s\S]* {2}9\. Graph Attention Networks </);
      expect(opened).toMatch(/Cited by, in the library \(7\)\n {2}6\. BERT: /);
      expect(reference!.trimStart()).toMatch(/^Deep Residual Learning for Image Recognition\n.*cited by 201,234/);
    } finally {
      await cited.dispose();
    }
  });
});
