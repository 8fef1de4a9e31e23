/**
 * A small XML reader, enough for the feeds arXiv serves (RSS 2.0 announcements and the API's
 * Atom): elements with namespace-resolved names, attributes, text with the predefined and
 * numeric entities decoded, CDATA sections, comments, processing instructions and a DOCTYPE
 * (skipped: no entity declarations are read, so nothing is ever expanded or fetched).
 *
 * It is strict about structure (tags must nest, one root element, prefixes must be declared) so
 * that a body which is not XML, such as an HTML error page or a truncated download, is a clear
 * {@link XmlError} rather than a quietly empty feed; and tolerant about text (an unknown entity
 * or a bare `&` is kept as written).
 */

/** An element: its name as written, its local name and namespace URI, attributes and children. */
export interface XmlElement {
  /** The qualified name as written, e.g. `dc:creator`. */
  name: string;
  /** The name without its prefix, e.g. `creator`. */
  local: string;
  /** The namespace URI the prefix (or the default namespace) is bound to; `''` for none. */
  ns: string;
  /** Attribute values by qualified name as written, entities decoded. */
  attrs: Record<string, string>;
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

/** Elements nested deeper than this are refused (a hostile body cannot exhaust the stack). */
export const MAX_XML_DEPTH = 256;

export class XmlError extends Error {
  override readonly name = 'XmlError';
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} at line ${line}, column ${column}`);
  }
}

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const NAME = /[A-Za-z_\u00C0-\uFFFF][\w.\-:\u00B7-\uFFFF]*/y;
const SPACE = /[ \t\r\n]*/y;
const ENTITY = /&(#[xX][0-9a-fA-F]{1,8}|#[0-9]{1,10}|[A-Za-z][A-Za-z0-9]{0,31});/g;
const NAMED_ENTITIES: ReadonlyMap<string, string> = new Map(Object.entries({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }));

/**
 * Decodes `&amp; &lt; &gt; &quot; &apos;` and numeric character references; anything else that
 * looks like an entity (an HTML `&nbsp;`, an invalid code point) is left as written.
 * @example decodeEntities('Q&amp;A &#x3B1;-divergence &nbsp;') // 'Q&A α-divergence &nbsp;'
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (whole, body: string) => {
    if (body[0] !== '#') return NAMED_ENTITIES.get(body) ?? whole;
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    return valid ? String.fromCodePoint(code) : whole;
  });
}

/**
 * Parses a whole XML document and returns its root element. Throws an {@link XmlError} naming
 * the line and column when the text is not well-formed XML.
 * @example
 * const root = parseXml('<rss xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>A &amp; B</dc:creator></rss>');
 * textContent(root.children[0] as XmlElement) // 'A & B'
 */
export function parseXml(input: string): XmlElement {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const fail = (reason: string, at: number): never => {
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    throw new XmlError(reason, line, at - before.lastIndexOf('\n'));
  };
  const stack: Array<{ el: XmlElement; scope: Map<string, string>; at: number }> = [];
  let root: XmlElement | undefined;
  let pos = 0;

  const addText = (value: string, at: number) => {
    const top = stack.at(-1);
    if (!top) {
      if (/\S/.test(value)) fail(`text outside the root element (${JSON.stringify(preview(value))})`, at + value.search(/\S/));
      return;
    }
    const children = top.el.children;
    const last = children.at(-1);
    if (typeof last === 'string') children[children.length - 1] = last + value;
    else children.push(value);
  };
  const skipTo = (marker: string, from: number, what: string): number => {
    const end = text.indexOf(marker, from);
    if (end === -1) fail(`unclosed ${what}`, pos);
    return end + marker.length;
  };

  while (pos < text.length) {
    const lt = text.indexOf('<', pos);
    const end = lt === -1 ? text.length : lt;
    if (end > pos) addText(decodeEntities(text.slice(pos, end)), pos);
    if (lt === -1) break;
    pos = lt;
    if (text.startsWith('<!--', pos)) {
      pos = skipTo('-->', pos + 4, 'comment');
    } else if (text.startsWith('<![CDATA[', pos)) {
      const close = skipTo(']]>', pos + 9, 'CDATA section');
      if (stack.length === 0) fail('CDATA outside the root element', pos);
      addText(text.slice(pos + 9, close - 3), pos);
      pos = close;
    } else if (text.startsWith('<?', pos)) {
      pos = skipTo('?>', pos + 2, 'processing instruction');
    } else if (text.startsWith('<!', pos)) {
      if (root || stack.length > 0) fail('a declaration inside the document', pos);
      const bracket = text.indexOf('[', pos);
      const gt = text.indexOf('>', pos);
      pos = bracket !== -1 && bracket < gt ? skipTo('>', skipTo(']', bracket, 'DOCTYPE'), 'DOCTYPE') : skipTo('>', pos, 'declaration');
    } else if (text[pos + 1] === '/') {
      const name = readName(pos + 2) ?? fail('a closing tag without a name', pos + 2);
      const at = skipSpace(pos + 2 + name.length);
      if (text[at] !== '>') fail(`"${text[at] ?? 'end of input'}" in the closing tag </${name}>`, at);
      const open = stack.pop();
      if (!open) fail(`a closing tag </${name}> with no element open`, pos);
      if (open!.el.name !== name) fail(`</${name}> closes <${open!.el.name}>`, pos);
      if (stack.length === 0) root = open!.el;
      pos = at + 1;
    } else {
      pos = openTag(pos);
    }
  }
  if (stack.length > 0) {
    const open = stack.at(-1)!;
    fail(`<${open.el.name}> is never closed (the document ends first)`, open.at);
  }
  if (!root) fail('no root element', text.length);
  return root!;

  function readName(at: number): string | undefined {
    NAME.lastIndex = at;
    return NAME.exec(text)?.[0];
  }
  function skipSpace(at: number): number {
    SPACE.lastIndex = at;
    SPACE.exec(text);
    return SPACE.lastIndex;
  }
  function openTag(start: number): number {
    if (root) fail('content after the root element', start);
    const name = readName(start + 1) ?? fail(`"${text[start + 1] ?? 'end of input'}" after "<"`, start + 1);
    const attrs: Record<string, string> = {};
    let at = start + 1 + name.length;
    let selfClosing = false;
    for (;;) {
      at = skipSpace(at);
      if (text.startsWith('/>', at)) {
        selfClosing = true;
        at += 2;
        break;
      }
      if (text[at] === '>') {
        at += 1;
        break;
      }
      const attr = readName(at) ?? fail(`"${text[at] ?? 'end of input'}" in the tag <${name}>`, at);
      at = skipSpace(at + attr.length);
      if (text[at] !== '=') fail(`attribute ${attr} of <${name}> has no value`, at);
      at = skipSpace(at + 1);
      const quote = text[at];
      if (quote !== '"' && quote !== "'") fail(`attribute ${attr} of <${name}> is not quoted`, at);
      const close = text.indexOf(quote!, at + 1);
      if (close === -1) fail(`attribute ${attr} of <${name}> is never closed`, at);
      attrs[attr] = decodeEntities(text.slice(at + 1, close));
      at = close + 1;
    }
    const parent = stack.at(-1);
    let scope = parent?.scope ?? new Map<string, string>([['xml', XML_NS]]);
    for (const [key, value] of Object.entries(attrs)) {
      if (key !== 'xmlns' && !key.startsWith('xmlns:')) continue;
      if (scope === parent?.scope) scope = new Map(scope);
      scope.set(key === 'xmlns' ? '' : key.slice(6), value);
    }
    const colon = name.indexOf(':');
    const prefix = colon === -1 ? '' : name.slice(0, colon);
    const ns = scope.get(prefix);
    if (ns === undefined && prefix !== '') fail(`the prefix "${prefix}" of <${name}> is not declared`, start);
    const el: XmlElement = { name, local: colon === -1 ? name : name.slice(colon + 1), ns: ns ?? '', attrs, children: [] };
    if (parent) parent.el.children.push(el);
    if (selfClosing) {
      if (!parent) root = el;
    } else {
      if (stack.length >= MAX_XML_DEPTH) fail(`elements nested more than ${MAX_XML_DEPTH} deep`, start);
      stack.push({ el, scope, at: start });
    }
    return at;
  }
}

/**
 * The child elements of `el` with local name `local` (any, when omitted) in namespace `ns`
 * (any, when omitted).
 * @example childElements(item, 'category').map(textContent) // ['cs.LG', 'cs.AI']
 */
export function childElements(el: XmlElement, local?: string, ns?: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of el.children) {
    if (typeof child === 'string') continue;
    if ((local === undefined || child.local === local) && (ns === undefined || child.ns === ns)) out.push(child);
  }
  return out;
}

/**
 * The first child element with that local name (and namespace, when given).
 * @example firstChild(channel, 'pubDate')?.children // ['Mon, 14 Apr 2025 00:00:00 -0400']
 */
export function firstChild(el: XmlElement, local: string, ns?: string): XmlElement | undefined {
  for (const child of el.children) {
    if (typeof child !== 'string' && child.local === local && (ns === undefined || child.ns === ns)) return child;
  }
  return undefined;
}

/**
 * All the text inside an element, its descendants' included, as one string.
 * @example textContent(parseXml('<t>Deep <i>nets</i></t>')) // 'Deep nets'
 */
export function textContent(el: XmlElement): string {
  let out = '';
  for (const child of el.children) out += typeof child === 'string' ? child : textContent(child);
  return out;
}

/**
 * The trimmed text of the first matching child, or `undefined` when there is none or it is blank.
 * @example childText(item, 'title') // 'Sparse Mixtures of Experts'
 */
export function childText(el: XmlElement, local: string, ns?: string): string | undefined {
  const child = firstChild(el, local, ns);
  const value = child && textContent(child).trim();
  return value ? value : undefined;
}

function preview(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  return trimmed.length > 60 ? `${trimmed.slice(0, 60)}…` : trimmed;
}
