/**
 * The OAI-PMH ListRecords parser on hand-written pages in arXiv's format, and on hostile input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OaiPageError, oaiSetOf, parseListRecords } from '../../../src/sources/arxiv/oai.js';
import { oaiRecordToRecord } from '../../../src/sources/arxiv/record.js';
import { fixture } from '../helpers/feedServer.js';

const OAI_OPEN = '<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">';
const page = (records: string, token = '') => `${OAI_OPEN}<responseDate>2024-02-01T10:00:00Z</responseDate><ListRecords>${records}${token}</ListRecords></OAI-PMH>`;
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const record = (id: string, fields: { title: string; authors: Array<[string, string]>; categories: string }) =>
  `<record><header><identifier>oai:arXiv.org:${id}</identifier><datestamp>2024-01-03</datestamp><setSpec>cs</setSpec></header>` +
  `<metadata><arXiv xmlns="http://arxiv.org/OAI/arXiv/"><id>${id}</id><created>2024-01-01</created><authors>` +
  fields.authors.map(([key, fore]) => `<author><keyname>${escape(key)}</keyname><forenames>${escape(fore)}</forenames></author>`).join('') +
  `</authors><title>${escape(fields.title)}</title><categories>${fields.categories}</categories><abstract>A.</abstract></arXiv></metadata></record>`;

describe('parseListRecords', () => {
  it('reads records, a deleted header and the resumption token with its cursor and list size', () => {
    const result = parseListRecords(fixture('oai-cs-page1.xml'));
    expect(result).toMatchObject({ size: 4, salvaged: false, problems: [], token: { value: '7004309|4', cursor: 0, completeListSize: 7 } });
    expect(result.records.map((r) => r.id)).toEqual(['2401.00001', '2401.00002', '2401.00003']);
    expect(result.deleted).toEqual([{ id: '2312.09999', datestamp: '2024-01-04' }]);
    expect(result.records[0]).toEqual({
      id: '2401.00001',
      datestamp: '2024-01-03',
      sets: ['cs', 'stat'],
      title: 'Gr\\"obner Bases for Sparse Mixture-of-Experts Routing in Large Language Models',
      authors: ["Csaba Bal\\'azs", "Ana Mar\\'ia Ruiz"],
      abstract: 'We route tokens of large language models to sparse experts with an exact algebraic criterion, and show that small models gain as much as large ones.',
      categories: ['cs.LG', 'stat.ML'],
      created: '2023-12-29',
      updated: '2024-01-02',
    });
    expect(result.records[1]!.authors).toEqual(['Tomás Okafor']);
    expect(result.records[2]).toMatchObject({ authors: ['Mei Lin', 'John Smith Jr'], doi: '10.1234/invented.2024.3', journalRef: 'Proceedings of an Invented Workshop 2024', categories: ['cs.CL', 'cs.LG'] });
  });

  it('reports a record without a title by its place and id, and reads the empty token that ends a list', () => {
    const result = parseListRecords(fixture('oai-cs-page2.xml'));
    expect(result.records.map((r) => r.id)).toEqual(['2401.00004', '2401.00006']);
    expect(result.problems).toEqual([{ index: 1, id: '2401.00005', reason: 'no title' }]);
    expect(result.token).toEqual({ value: '', cursor: 4, completeListSize: 7 });
  });

  it('reads a page with a broken record one record at a time, reporting the broken one', () => {
    const result = parseListRecords(fixture('oai-cs-page2-broken-record.xml'));
    expect(result.salvaged).toBe(true);
    expect(result.records.map((r) => r.id)).toEqual(['2401.00006']);
    expect(result.problems).toEqual([
      { index: 0, id: '2401.00004', reason: expect.stringMatching(/^not well-formed XML: <\/title> closes <i>/) },
      { index: 1, id: '2401.00005', reason: 'no title' },
    ]);
    expect(result).toMatchObject({ size: 3, token: { value: '', cursor: 4, completeListSize: 7 } });
  });

  it.each([
    ['oai-error-bad-token.xml', 'badResumptionToken', 'The value of the resumptionToken argument is invalid or expired.'],
    ['oai-error-no-records.xml', 'noRecordsMatch', expect.stringContaining('results in an empty list')],
    ['oai-error-bad-argument.xml', 'badArgument', 'Illegal set value: nosuch'],
  ])('reads the OAI error of %s by its code', (name, code, message) => {
    expect(parseListRecords(fixture(name))).toMatchObject({ error: { code, message }, records: [], size: 0 });
  });

  it('refuses what is not an OAI-PMH response, and a cut-off page that could pass for the last one', () => {
    expect(() => parseListRecords('<html><head><title>503 Service Unavailable</title></head><body></body></html>')).toThrow(
      new OaiPageError('expected an OAI-PMH response, got <html> ("503 Service Unavailable")'),
    );
    expect(() => parseListRecords('Retry later')).toThrow(/expected an OAI-PMH response but the body is not XML .* it starts "Retry later"/);
    const whole = fixture('oai-cs-page1.xml');
    const cut = whole.slice(0, whole.indexOf('<record>', whole.indexOf('2401.00002')) + 20);
    expect(() => parseListRecords(cut)).toThrow(/has no resumption token: it may have been cut off/);
    expect(() => parseListRecords(`${OAI_OPEN}<Identify/></OAI-PMH>`)).toThrow('neither <ListRecords> nor <error>');
  });

  it('throws nothing but OaiPageError on hostile bodies', () => {
    const pieces = ['<', '>', '</', '/>', '&', '&amp;', '"', '<record>', '</record>', '<OAI-PMH>', '<resumptionToken>', '<header status="deleted">', '<![CDATA[', ']]>', 'x'];
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string()), { maxLength: 40 }), (parts) => {
        try {
          parseListRecords(parts.join(''));
        } catch (error) {
          expect(error).toBeInstanceOf(OaiPageError);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('reads any title and author names back as written, whitespace collapsed', () => {
    const text = fc.string({ minLength: 1, maxLength: 60 }).filter((s) => /\S/.test(s) && !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(s));
    fc.assert(
      fc.property(text, fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 5 }), (title, authors) => {
        const result = parseListRecords(page(record('2401.12345', { title, authors, categories: 'cs.LG' })));
        const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();
        expect(result.records[0]!.title).toBe(collapse(title));
        expect(result.records[0]!.authors).toEqual(authors.map(([key, fore]) => collapse(`${collapse(fore)} ${collapse(key)}`)).filter(Boolean));
      }),
      { numRuns: 200 },
    );
  });
});

describe('oaiSetOf', () => {
  it.each([
    ['cs.LG', 'cs'],
    ['cs', 'cs'],
    ['stat.ML', 'stat'],
    ['math.OC', 'math'],
    ['q-bio.NC', 'q-bio'],
    ['eess.AS', 'eess'],
    ['hep-th', 'physics:hep-th'],
    ['astro-ph.CO', 'physics:astro-ph'],
    ['cond-mat.str-el', 'physics:cond-mat'],
    ['physics.optics', 'physics:physics'],
    ['quant-ph', 'physics:quant-ph'],
    ['nlin.AO', 'physics:nlin'],
  ])('%s is harvested from set %s', (category, set) => {
    expect(oaiSetOf(category)).toBe(set);
  });
});

describe('oaiRecordToRecord', () => {
  it('maps to the same shape as the feeds and the snapshot: version-less id, arXiv venue, first-version date', () => {
    const [first] = parseListRecords(fixture('oai-cs-page1.xml')).records;
    expect(oaiRecordToRecord(first!)).toEqual({
      ok: true,
      record: expect.objectContaining({
        sourceKey: 'arxiv:2401.00001',
        venue: 'arXiv',
        year: 2023,
        published: '2023-12-29',
        labels: ['cs.LG', 'stat.ML'],
        links: { page: 'https://arxiv.org/abs/2401.00001', pdf: 'https://arxiv.org/pdf/2401.00001' },
        externalIds: { arxiv: '2401.00001' },
      }),
    });
  });
});
