import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArxivFeedError, parseApiFeed, parseRssFeed, rssDate, splitAuthors } from '../../../src/sources/arxiv/feed.js';
import { entryToRecord, firstAppeared } from '../../../src/sources/arxiv/record.js';
import { fixture } from '../helpers/feedServer.js';

describe('parseRssFeed', () => {
  it('reads a normal day: new, cross, replace and replace-cross items', () => {
    const feed = parseRssFeed(fixture('rss-cs.LG-2025-04-14.xml'));
    expect(feed.date).toBe('2025-04-14');
    expect(feed.skipDays).toEqual(['Saturday', 'Sunday']);
    expect(feed.problems).toEqual([]);
    expect(feed.entries.map((e) => [e.id, e.version, e.announceType])).toEqual([
      ['2504.09001', 1, 'new'],
      ['2504.09002', 1, 'new'],
      ['2504.08977', 1, 'cross'],
      ['2503.12345', 2, 'replace'],
      ['2504.09003', 1, 'new'],
      ['2412.01234', 3, 'replace-cross'],
    ]);
    expect(feed.entries[0]).toEqual({
      id: '2504.09001',
      version: 1,
      title: 'Sparse Mixture-of-Experts Routing for Large Language Models at Small Scale',
      authors: ['Ana Ruiz', 'Tomás Okafor', 'Mei Lin'],
      abstract:
        'We study top-$k$ routing in sparse mixture-of-experts layers when the number of experts $n$ is small and $k < n$. ' +
        'A load-balancing term with cost $\\mathcal{O}(k \\log n)$ keeps every expert busy, and a large language model of 120M parameters trained with it matches a dense model twice its size.',
      categories: ['cs.LG', 'cs.CL'],
      announceType: 'new',
      announced: '2025-04-14',
    });
  });

  it('takes CDATA as written, keeps a Jr. with its name, and reads DOI and journal reference', () => {
    const [, qa, , , graph] = parseRssFeed(fixture('rss-cs.LG-2025-04-14.xml')).entries;
    expect(qa!.title).toBe('Q&A-Guided Curriculum Learning for Offline Reinforcement Learning');
    expect(qa!.abstract).toMatch(/^Offline reinforcement learning agents <learn> from fixed logs & rarely/);
    expect(qa!.authors).toEqual(['Samuel Adeyemi Jr.', 'Clara Novak']);
    expect(graph).toMatchObject({ doi: '10.5555/example.2025.0042', journalRef: 'Proc. Example Conf. on Learning 3 (2025) 101-118' });
  });

  it('reads an empty weekend feed as no entries, not an error', () => {
    expect(parseRssFeed(fixture('rss-empty-weekend.xml'))).toEqual({ date: '2025-04-19', skipDays: ['Saturday', 'Sunday'], entries: [], problems: [] });
  });

  it('reports malformed items with their index and keeps the rest', () => {
    const feed = parseRssFeed(fixture('rss-cs.LG-malformed.xml'));
    expect(feed.entries.map((e) => e.id)).toEqual(['2504.11001', '2504.11004']);
    expect(feed.problems).toEqual([
      { index: 1, reason: 'no title (arXiv 2504.11002)' },
      { index: 2, reason: 'no arXiv id: its guid, link and description name none' },
    ]);
  });

  it('finds the id in the link or description when the guid is missing, and reads old-style ids', () => {
    const feed = parseRssFeed(
      '<rss version="2.0"><channel><pubDate>Tue, 1 Apr 2025 00:00:00 -0400</pubDate>' +
        '<item><title>From the link</title><link>https://arxiv.org/abs/2504.00001</link><description>no header here</description></item>' +
        '<item><title>From the description. (arXiv:hep-th/9901001v2 [hep-th])</title><description>arXiv:hep-th/9901001v2 Announce Type: replace\nAbstract: Old.</description></item>' +
        '</channel></rss>',
    );
    expect(feed.entries).toMatchObject([
      { id: '2504.00001', title: 'From the link', abstract: 'no header here', announced: '2025-04-01' },
      { id: 'hep-th/9901001', version: 2, title: 'From the description', announceType: 'replace', abstract: 'Old.' },
    ]);
    expect(feed.entries[0]!.announceType).toBeUndefined();
  });

  it.each([
    ['an empty body', '', /not XML \(no root element/],
    ['an HTML error page', '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>503</title></head></html>', /not XML/],
    ['an XHTML page', '<html><head><title>Service Unavailable</title></head><body/></html>', /expected an RSS feed, got <html> \("Service Unavailable"\)/],
    ['plain text', 'Rate exceeded.', /not XML .*text outside the root element.*it starts "Rate exceeded\."/],
    ['an Atom feed', fixture('api-cs.LG-start-0.xml'), /expected an RSS feed, got <feed>/],
    ['a truncated feed', fixture('rss-cs.LG-2025-04-14.xml').slice(0, 3000), /not XML \(.*never closed/],
    ['RSS without a channel', '<rss version="2.0"></rss>', /no <channel>/],
  ])('refuses %s with a clear ArxivFeedError', (_, body, message) => {
    expect(() => parseRssFeed(body)).toThrow(ArxivFeedError);
    expect(() => parseRssFeed(body)).toThrow(message);
  });

  it('throws nothing but ArxivFeedError on hostile bodies', () => {
    const body = fixture('rss-cs.LG-2025-04-14.xml');
    fc.assert(
      fc.property(fc.nat(body.length), fc.nat(body.length), fc.string(), (a, b, junk) => {
        const [from, to] = a < b ? [a, b] : [b, a];
        try {
          parseRssFeed(body.slice(0, from) + junk + body.slice(to));
        } catch (error) {
          expect(error).toBeInstanceOf(ArxivFeedError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads any title and author list back as written, whitespace collapsed', () => {
    const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const name = fc.stringMatching(/^[A-Za-zÀ-ÿ.' -]{1,20}$/).filter((n) => /[A-Za-zÀ-ÿ]/.test(n) && !/^(jr|sr|ii|iii|iv)\.?$/i.test(n.trim()));
    fc.assert(
      fc.property(fc.string({ minLength: 1 }).filter((t) => t.trim() !== '' && !/\(arXiv:/.test(t)), fc.array(name, { minLength: 1, maxLength: 5 }), (title, authors) => {
        const xml = `<rss xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><item><title>${escape(title)}</title><guid>oai:arXiv.org:2504.00001v1</guid><dc:creator>${escape(authors.join(',\n '))}</dc:creator></item></channel></rss>`;
        const [entry] = parseRssFeed(xml).entries;
        expect(entry!.title).toBe(title.replace(/\s+/g, ' ').trim());
        expect(entry!.authors).toEqual(authors.map((a) => a.replace(/\s+/g, ' ').trim()).filter(Boolean));
      }),
    );
  });
});

describe('parseApiFeed', () => {
  it('reads a page: ids and versions, dates, authors, primary category first, DOI and journal reference', () => {
    const page = parseApiFeed(fixture('api-cs.LG-start-0.xml'));
    expect(page).toMatchObject({ totalResults: 250, startIndex: 0, problems: [] });
    expect(page.entries).toHaveLength(3);
    expect(page.entries[1]).toEqual({
      id: '2504.08801',
      version: 1,
      title: 'Low-Precision Training of Large Language Models with Stochastic Rounding',
      authors: ['Ravi Menon', 'Elena Popescu'],
      abstract:
        'Training large language models in 8-bit floating point diverges without care. We show that stochastic rounding of the optimizer state is enough to match 16-bit training on three model sizes.',
      categories: ['cs.LG'],
      published: '2025-04-10T12:00:00Z',
      updated: '2025-04-10T12:00:00Z',
    });
    expect(page.entries[2]).toMatchObject({
      id: '2504.08702',
      version: 2,
      categories: ['stat.ML', 'cs.LG'],
      published: '2025-04-09T09:30:00Z',
      updated: '2025-04-11T08:15:00Z',
      doi: '10.5555/example.drift.2025',
      journalRef: 'Example Journal of Statistics 12 (2025)',
    });
  });

  it('reports an entry without a title and reads namespaces declared on the root', () => {
    const page = parseApiFeed(fixture('api-cs.LG-start-3.xml'));
    expect(page.startIndex).toBe(3);
    expect(page.problems).toEqual([{ index: 0, reason: 'no title (arXiv 2504.08660)' }]);
    expect(page.entries.map((e) => [e.id, e.categories])).toEqual([
      ['2504.08650', ['cs.CV', 'cs.LG']],
      ['2504.08000', ['cs.LG']],
    ]);
  });

  it('reads an empty result as no entries', () => {
    const page = parseApiFeed('<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"><opensearch:totalResults>0</opensearch:totalResults></feed>');
    expect(page).toEqual({ totalResults: 0, entries: [], problems: [] });
  });

  it("turns the API's error entry into an ArxivFeedError with its explanation", () => {
    const body =
      '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_1234.1234v2</id>' +
      '<title>Error</title><summary>incorrect id format for 1234.1234v2</summary></entry></feed>';
    expect(() => parseApiFeed(body)).toThrow('the arXiv API refused the query: incorrect id format for 1234.1234v2');
  });

  it('refuses an RSS feed', () => {
    expect(() => parseApiFeed(fixture('rss-empty-weekend.xml'))).toThrow(/expected an Atom feed from the arXiv API, got <rss>/);
  });
});

describe('helpers', () => {
  it.each([
    ['Mon, 14 Apr 2025 00:00:00 -0400', '2025-04-14'],
    ['Sat, 1 Mar 2025 23:59:59 +0000', '2025-03-01'],
    ['2025-04-14T00:00:00-04:00', '2025-04-14'],
    ['not a date', undefined],
    [undefined, undefined],
  ])('rssDate(%j) = %j', (input, expected) => {
    expect(rssDate(input)).toBe(expected);
  });

  it.each([
    ['Ada Lovelace, Grace\n  Hopper', ['Ada Lovelace', 'Grace Hopper']],
    ['John Smith, Jr., Jane Doe, III', ['John Smith Jr.', 'Jane Doe III']],
    ['<a href="/a/x_1">X. Li</a>, <a href="/a/y_1">Y. Wu</a>', ['X. Li', 'Y. Wu']],
    ['The ATLAS Collaboration', ['The ATLAS Collaboration']],
    [' , ', []],
  ])('splitAuthors(%j)', (input, expected) => {
    expect(splitAuthors(input)).toEqual(expected);
  });
});

describe('entryToRecord', () => {
  it('maps an RSS entry: version-less id, arXiv venue, announcement day as published, links, categories as labels', () => {
    const entry = parseRssFeed(fixture('rss-cs.LG-2025-04-14.xml')).entries[4]!;
    expect(entryToRecord(entry)).toEqual({
      ok: true,
      record: {
        sourceKey: 'arxiv:2504.09003',
        title: 'Calibrated Uncertainty for Graph Neural Networks under Distribution Shift',
        authors: ['Priya Natarajan', 'Jonas Berg'],
        abstract: expect.stringMatching(/^Graph neural networks are overconfident/),
        venue: 'arXiv',
        year: 2025,
        status: '',
        keywords: [],
        labels: ['cs.LG', 'stat.ML'],
        links: { page: 'https://arxiv.org/abs/2504.09003', pdf: 'https://arxiv.org/pdf/2504.09003' },
        externalIds: { arxiv: '2504.09003', doi: '10.5555/example.2025.0042' },
        published: '2025-04-14',
      },
    });
  });

  it("takes an API entry's first-version date, and gives a replacement no date at all", () => {
    const api = parseApiFeed(fixture('api-cs.LG-start-0.xml')).entries[2]!;
    expect(entryToRecord(api)).toMatchObject({ ok: true, record: { year: 2025, published: '2025-04-09' } });
    const replace = parseRssFeed(fixture('rss-cs.LG-2025-04-14.xml')).entries[3]!;
    const mapped = entryToRecord(replace);
    expect(mapped).toMatchObject({ ok: true, record: { year: null, externalIds: { arxiv: '2503.12345' } } });
    expect(mapped.ok && mapped.record.published).toBeUndefined();
    expect(firstAppeared({ announceType: 'cross', announced: '2025-04-14' })).toBe('2025-04-14');
  });
});
