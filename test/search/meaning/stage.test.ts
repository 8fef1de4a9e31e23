/**
 * The meaning stage end to end on a small library: the base's association table (learned from
 * its postings, kept beside its snapshot, learned again when that file does not fit), the
 * scorer against a plain BM25 computed here, and the engine: a description finds its paper by
 * the title words the library ties to its words, a query that names a paper is answered as
 * before, a new paper is found by meaning as soon as it is indexed, and a pasted text finds
 * related work with its closest sentence.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SearchEngine } from '../../../src/search/engine.js';
import { buildSegment } from '../../../src/search/index/build.js';
import { openSnapshot } from '../../../src/search/index/format.js';
import { Field } from '../../../src/search/index/types.js';
import { IndexView } from '../../../src/search/index/view.js';
import { writeSegmentFile } from '../../../src/search/index/writer.js';
import { MeaningScorer } from '../../../src/search/meaning/scorer.js';
import { descriptionBag, isDescription, textQuery } from '../../../src/search/meaning/stage.js';
import { associationsOf, readTable, tableFor } from '../../../src/search/meaning/table.js';
import { planWords } from '../../../src/search/expand.js';
import { parseQuery } from '../../../src/search/query.js';
import { closestSentence, segmentsToText } from '../../../src/search/snippet.js';
import { indexRow } from '../helpers/indexRow.js';

const options = { generation: 1, taxonomyHash: 'h', topicIds: [] };

/** Papers whose abstracts say "twin" where their titles say "siamese", and others. */
const PAPERS: Array<[string, string]> = [
  ['Siamese signature verification', 'Twin networks compare pen strokes to detect forgery in handwriting.'],
  ['Siamese networks for one shot image recognition', 'Twin branches share weights and compare images of unseen classes.'],
  ['Deep siamese tracking', 'Twin subnetworks match a template to search regions in video frames.'],
  ['Fully convolutional siamese trackers', 'Twin convolutional branches correlate exemplar and search images.'],
  ['Signature forgery detection with pressure', 'Pen pressure features detect forged handwriting.'],
  ['Graph attention networks', 'Attention over neighbours in graphs.'],
  ['Attention is all you need', 'Attention networks without recurrence translate text.'],
  ['Diffusion models beat GANs', 'Diffusion networks generate images of high fidelity.'],
  ['Denoising diffusion probabilistic models', 'Diffusion denoising generates images from noise.'],
  ['Scalable diffusion models with transformers', 'Transformers denoise latent images with attention.'],
  ['Mask R-CNN', 'Instance segmentation networks detect objects and their masks.'],
  ['Deep residual learning', 'Residual networks ease training of very deep image classifiers.'],
  ['Batch normalization', 'Normalizing layer inputs accelerates training of deep networks.'],
  ['Adam: a method for stochastic optimization', 'Adaptive moment estimates for gradient based training.'],
  ['Dropout', 'Randomly dropping units prevents co-adaptation in networks.'],
  ['Learning to rank with pairwise losses', 'Pairwise comparisons of documents train a ranking function.'],
];

const rows = (papers: ReadonlyArray<[string, string]>, from = 1) => papers.map(([title, abstract], i) => indexRow(from + i, title, { abstract }));
const deps = { resolveTopic: () => ({ id: 'none' }), lookupAbstracts: async () => new Map<number, string>() };
const engineOf = (view: IndexView) => new SearchEngine(view, deps);

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the association table of a base', () => {
  it('ties a word of the abstracts to the title word of the papers that use it', () => {
    const segment = buildSegment(rows(PAPERS), options);
    const view = new IndexView(segment);
    const table = associationsOf(segment, { minLibrary: 0 });
    const twin = view.vocab.id('twin')!;
    const associates = Array.from(table.associates.subarray(table.start[twin]!, table.start[twin + 1]!), (t) => view.termString(t));
    expect(associates[0]).toBe('siamese');
    // Title words used by fewer than three of its papers are not tied to it.
    expect(associates).not.toContain('recognition');
  });

  it('is empty for a library too small to teach anything', () => {
    expect(associationsOf(buildSegment(rows(PAPERS), options)).associates.length).toBe(0);
  });

  it('is kept beside the snapshot, read back as written, and learned again when the file does not fit', () => {
    dir = mkdtempSync(join(tmpdir(), 'meaning-'));
    const path = join(dir, 'index.bin');
    // Enough papers to learn from: the library written out 70 times.
    writeSegmentFile(path, buildSegment(rows(Array.from({ length: 70 }, () => PAPERS).flat()), options));
    const first = openSnapshot(path).segment;
    const learned = tableFor(first);
    expect(learned.associates.length).toBeGreaterThan(0);
    expect(existsSync(`${path}.meaning`)).toBe(true);
    const read = readTable(first)!;
    expect(Array.from(read.start)).toEqual(Array.from(learned.start));
    expect(Array.from(read.associates)).toEqual(Array.from(learned.associates));
    expect(Array.from(read.weights)).toEqual(Array.from(learned.weights));
    // Another base's table, or a damaged file, is not used.
    expect(readTable({ ...first, snapshot: { path, key: 'another base' } })).toBeUndefined();
    const bytes = readFileSync(`${path}.meaning`);
    bytes[bytes.length - 1]! ^= 0xff;
    writeFileSync(`${path}.meaning`, bytes);
    expect(readTable(first)).toBeUndefined();
    writeFileSync(`${path}.meaning`, 'not a table');
    expect(readTable(first)).toBeUndefined();
    // A new opening of the snapshot learns it again and rewrites the file.
    const again = tableFor(openSnapshot(path).segment);
    expect(Array.from(again.associates)).toEqual(Array.from(learned.associates));
    expect(readTable(first)).toBeDefined();
  });

  it('says when the file cannot be written, and serves the table from memory', () => {
    dir = mkdtempSync(join(tmpdir(), 'meaning-'));
    const path = join(dir, 'index.bin');
    writeSegmentFile(path, buildSegment(rows(PAPERS), options));
    const segment = openSnapshot(path).segment;
    // A directory that does not exist where the file would go: the write fails.
    const blocked = { ...segment, snapshot: { path: join(dir, 'missing-dir', 'index.bin'), key: segment.snapshot!.key } };
    const problems: unknown[] = [];
    const table = tableFor(blocked, (e) => problems.push(e));
    expect(problems).toHaveLength(1);
    expect(table.start.length).toBe(segment.docFreq.length + 1);
  });
});

describe('the meaning scorer', () => {
  /** BM25 of the bag over title (twice) and abstract read as one text, every paper scored. */
  function reference(view: IndexView, bag: ReadonlyMap<number, number>): Map<number, number> {
    const scores = new Map<number, number>();
    const n = view.liveCount;
    const avg = 2 * view.avgLength(Field.Title) + view.avgLength(Field.Abstract);
    const fields = view.base.fields;
    for (let d = 0; d < view.docCount; d++) {
      let s = 0;
      for (const [term, w] of bag) {
        const tfIn = (f: number) => {
          const p = fields[f]!;
          for (let i = p.offsets[term]!; i < p.offsets[term + 1]!; i++) if (p.docs[i] === d) return p.tfs[i]!;
          return 0;
        };
        const tf = 2 * tfIn(Field.Title) + tfIn(Field.Abstract);
        if (tf === 0) continue;
        const df = view.df[term]!;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        const len = 2 * fields[Field.Title]!.lengths[d]! + fields[Field.Abstract]!.lengths[d]!;
        s += (w * idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * len) / avg));
      }
      if (s > 0) scores.set(d, s);
    }
    return scores;
  }

  it('scores as plain BM25 of the bag over title and abstract, best first, ties by store document', () => {
    const view = new IndexView(buildSegment(rows(PAPERS), options));
    const bag = new Map(['twin', 'pen', 'images', 'networks'].map((w) => [view.vocab.id(w)!, 1]));
    const hits = new MeaningScorer(view).score(bag, 50);
    const want = [...reference(view, bag)].sort((a, b) => b[1] - a[1] || view.storeDoc(a[0]) - view.storeDoc(b[0]));
    expect(hits.map((h) => h.doc)).toEqual(want.map(([d]) => d));
    hits.forEach((h, i) => expect(h.score).toBeCloseTo(want[i]![1], 9));
  });

  it('gives the same list for the same bag, and only what admits lets through', () => {
    const view = new IndexView(buildSegment(rows(PAPERS), options));
    const scorer = new MeaningScorer(view);
    const bag = new Map(['twin', 'networks'].map((w) => [view.vocab.id(w)!, 1]));
    expect(scorer.score(bag, 10)).toEqual(scorer.score(bag, 10));
    expect(scorer.score(bag, 10, (d) => d % 2 === 0).every((h) => h.doc % 2 === 0)).toBe(true);
  });
});

describe('descriptions in the engine', () => {
  it('finds a paper described without its title words', async () => {
    const engine = engineOf(new IndexView(buildSegment(rows(PAPERS), options)));
    const result = await engine.search('twin branches comparing strokes of forged handwriting');
    expect(result.meaning?.length).toBeGreaterThan(0);
    expect(result.hits[0]?.title).toBe('Siamese signature verification');
    expect(result.notes.some((n) => n.key === 'search.described')).toBe(true);
  });

  it('leaves a query that names a paper, or a short one, to the words', async () => {
    const engine = engineOf(new IndexView(buildSegment(rows(PAPERS), options)));
    const titled = await engine.search('scalable diffusion models with transformers');
    expect(titled.hits[0]?.title).toBe('Scalable diffusion models with transformers');
    expect(titled.meaning).toBeUndefined();
    expect((await engine.search('twin networks')).meaning).toBeUndefined();
  });

  it('reads a query of hyphenated compounds as words pasted from one paper, not as a description', () => {
    const groups = (q: string) => planWords(parseQuery(q), new IndexView(buildSegment(rows(PAPERS), options)).vocab, PAPERS.length);
    const q1 = 'step-over-step phase-based knee-ankle';
    expect(isDescription(groups(q1), parseQuery(q1).compounds, false)).toBe(false);
    const q2 = 'two-stream agent fusing pretrained semantics with spatial precision';
    expect(isDescription(groups(q2), parseQuery(q2).compounds, false)).toBe(true);
    expect(isDescription(groups(q2), parseQuery(q2).compounds, true)).toBe(false);
  });

  it('finds a new paper by meaning as soon as it is indexed', async () => {
    const view = new IndexView(buildSegment(rows(PAPERS), options));
    const engine = engineOf(view);
    const description = 'twin encoders comparing handwritten strokes of banking cheques';
    expect((await engine.search(description)).hits.map((h) => h.title)).not.toContain('Cheque signatures with siamese encoders');
    view.apply(buildSegment(rows([['Cheque signatures with siamese encoders', 'Banking cheques verified by encoders.']], 100), { ...options, generation: 2 }));
    expect((await engine.search(description)).hits[0]?.title).toBe('Cheque signatures with siamese encoders');
  });

  it('weighs a word and its associates: the description bag holds both, the word first', () => {
    const view = new IndexView(buildSegment(rows(PAPERS), options));
    const table = associationsOf(view.base, { minLibrary: 0 });
    const bag = descriptionBag(planWords(parseQuery('twin'), view.vocab, view.liveCount), table, view.base.docFreq.length);
    expect(bag.get(view.vocab.id('twin')!)).toBe(1);
    expect(bag.get(view.vocab.id('siamese')!)).toBeGreaterThan(0);
    expect(bag.get(view.vocab.id('siamese')!)).toBeLessThan(1);
  });
});

describe('related work for a pasted text', () => {
  it('finds the papers closest to an abstract, each with its closest sentence', async () => {
    const engine = engineOf(new IndexView(buildSegment(rows(PAPERS), options)));
    const abstract =
      'We verify handwritten signatures. Twin networks with shared weights compare the pen strokes of a questioned signature with a reference, ' +
      'and flag forgery when they differ. Results on cheques are strong.';
    const result = engine.related(abstract, { limit: 5 });
    expect(result.hits[0]?.title).toMatch(/signature/i);
    expect(result.hits.length).toBeLessThanOrEqual(5);
    const snippet = segmentsToText(closestSentence(PAPERS[0]![1], result.meaning!));
    expect(snippet).toBe('Twin networks compare pen strokes to detect forgery in handwriting.');
  });

  it('reads only the most telling words of a long text, and nothing of one without words', () => {
    const view = new IndexView(buildSegment(rows(PAPERS), options));
    const long = `${'networks '.repeat(500)} twin pen`;
    expect(textQuery(long, view).trim().split(' ').sort()).toEqual(['networks', 'pen', 'twin']);
    expect(engineOf(view).related('… — !!!').hits).toEqual([]);
    expect(engineOf(view).related('').hits).toEqual([]);
  });
});

describe('the closest sentence', () => {
  it('is the sentence whose words weigh most, marked, with an ellipsis where the text goes on', () => {
    const text = 'We study birds. Twin networks compare signatures. Nothing else here.';
    const words = [
      { word: 'signature', forms: ['signature'], weight: 5 },
      { word: 'birds', forms: ['birds'], weight: 1 },
    ];
    expect(closestSentence(text, words)).toEqual([{ text: '… Twin networks compare ' }, { text: 'signatures', match: true }, { text: '. …' }]);
  });

  it('is the opening of the text when no sentence has a word, and never marks markup as anything but text', () => {
    expect(segmentsToText(closestSentence('Nothing matches. At all.', [{ word: 'zebra', forms: ['zebra'], weight: 1 }]))).toBe('Nothing matches. At all.');
    const hostile = closestSentence('<script>alert(1)</script> twin @everyone.', [{ word: 'twin', forms: ['twin'], weight: 1 }]);
    expect(segmentsToText(hostile)).toBe('<script>alert(1)</script> twin @everyone.');
    expect(hostile.find((s) => s.match)?.text).toBe('twin');
  });
});
