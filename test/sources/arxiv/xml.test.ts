import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { childElements, childText, decodeEntities, firstChild, MAX_XML_DEPTH, parseXml, textContent, XmlError, type XmlElement } from '../../../src/sources/arxiv/xml.js';

describe('decodeEntities', () => {
  it.each([
    ['Q&amp;A', 'Q&A'],
    ['&lt;b&gt; &quot;x&quot; &apos;y&apos;', `<b> "x" 'y'`],
    ['&#233;t&#xE9; &#X1F600;', 'été 😀'],
    ['AT&T and &nbsp; stay', 'AT&T and &nbsp; stay'],
    ['&#0; &#xD800; &#x110000;', '&#0; &#xD800; &#x110000;'],
    ['&amp;lt;', '&lt;'],
    ['no entities', 'no entities'],
  ])('%s', (input, expected) => {
    expect(decodeEntities(input)).toBe(expected);
  });
});

describe('parseXml', () => {
  it('reads elements, attributes in either quote, text with entities, CDATA as written', () => {
    const root = parseXml(`<?xml version="1.0"?>\n<!-- a comment --><a x="1 &amp; 2" y='it"s'><b>T &lt; U</b><c><![CDATA[<raw> & stays]]></c><d/></a>\n`);
    expect(root).toMatchObject({ name: 'a', local: 'a', ns: '', attrs: { x: '1 & 2', y: 'it"s' } });
    expect(childElements(root).map((e) => e.name)).toEqual(['b', 'c', 'd']);
    expect(childText(root, 'b')).toBe('T < U');
    expect(childText(root, 'c')).toBe('<raw> & stays');
    expect(childText(root, 'd')).toBeUndefined();
  });

  it('keeps whitespace and newlines inside text; callers collapse it', () => {
    const root = parseXml('<t>Deep\n   <i>Residual</i>  Learning </t>');
    expect(textContent(root)).toBe('Deep\n   Residual  Learning ');
  });

  it('resolves namespace prefixes and default namespaces, with redeclaration in scope', () => {
    const root = parseXml(
      '<feed xmlns="urn:atom" xmlns:arxiv="urn:arxiv"><entry><arxiv:doi>10.1/x</arxiv:doi>' +
        '<inner xmlns:arxiv="urn:other"><arxiv:doi>no</arxiv:doi></inner></entry><arxiv:doi>top</arxiv:doi></feed>',
    );
    expect(root.ns).toBe('urn:atom');
    const entry = firstChild(root, 'entry', 'urn:atom')!;
    expect(childText(entry, 'doi', 'urn:arxiv')).toBe('10.1/x');
    const inner = firstChild(entry, 'inner')!;
    expect(inner.ns).toBe('urn:atom');
    expect(childText(inner, 'doi', 'urn:arxiv')).toBeUndefined();
    expect(childText(inner, 'doi', 'urn:other')).toBe('no');
    expect(childText(root, 'doi', 'urn:arxiv')).toBe('top');
    expect(firstChild(root, 'doi')!.name).toBe('arxiv:doi');
  });

  it('skips a DOCTYPE without expanding the entities it declares', () => {
    const root = parseXml('<!DOCTYPE r [ <!ENTITY boom "xxxxxxxx"> ]><r>&boom;</r>');
    expect(textContent(root)).toBe('&boom;');
  });

  it('skips a leading byte order mark', () => {
    expect(parseXml('\uFEFF<r/>').name).toBe('r');
  });

  it.each([
    ['', /no root element/],
    ['Service Unavailable', /text outside the root element \("Service Unavailable"\) at line 1, column 1/],
    ['{"error": "rate limited"}', /text outside the root element/],
    ['<a><b></a>', /<\/a> closes <b> at line 1, column 7/],
    ['<a>\n<b>\n', /<b> is never closed \(the document ends first\) at line 2, column 1/],
    ['<a></a><b></b>', /content after the root element/],
    ['<a></a> trailing', /text outside the root element/],
    ['<a x=1></a>', /attribute x of <a> is not quoted/],
    ['<a x></a>', /attribute x of <a> has no value/],
    ['<a x="1></a>', /never closed/],
    ['<a><dc:creator>x</dc:creator></a>', /the prefix "dc" of <dc:creator> is not declared/],
    ['<a><!-- unclosed', /unclosed comment/],
    ['<a><![CDATA[ unclosed', /unclosed CDATA section/],
    ['<a>< b/></a>', /" " after "<"/],
    ['</a>', /a closing tag <\/a> with no element open/],
    ['<html><body><br></body></html>', /<\/body> closes <br>/],
  ])('refuses %j', (input, message) => {
    expect(() => parseXml(input)).toThrow(XmlError);
    expect(() => parseXml(input)).toThrow(message);
  });

  it('refuses nesting deeper than MAX_XML_DEPTH instead of overflowing the stack', () => {
    const deep = '<a>'.repeat(MAX_XML_DEPTH + 1) + '</a>'.repeat(MAX_XML_DEPTH + 1);
    expect(() => parseXml(deep)).toThrow(/nested more than/);
    const ok = '<a>'.repeat(MAX_XML_DEPTH) + 'x' + '</a>'.repeat(MAX_XML_DEPTH);
    expect(textContent(parseXml(ok))).toBe('x');
  });

  it('throws nothing but XmlError on hostile input', () => {
    const pieces = fc.constantFrom('<a>', '</a>', '<b x="1">', '</b>', '<c/>', '<!--', '-->', '<![CDATA[', ']]>', '&amp;', '&#x', '<?', '?>', '<!DOCTYPE', '[', ']', '>', '<', '"', 'text', 'p:q', ' xmlns:p="u"');
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string()), { maxLength: 30 }), (parts) => {
        try {
          parseXml(parts.join(''));
        } catch (error) {
          expect(error).toBeInstanceOf(XmlError);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('gives back any text it was given, escaped, as written', () => {
    const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    fc.assert(
      fc.property(fc.string(), (text) => {
        const root: XmlElement = parseXml(`<t>${escape(text)}</t>`);
        expect(textContent(root)).toBe(text);
      }),
    );
  });
});
