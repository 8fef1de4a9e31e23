/**
 * HTML that cannot be injected into: {@link html} is a tagged template that escapes every value
 * it is given (text and attribute values alike) unless the value is itself {@link Html} made by
 * this module. Pages are built only from these, so a paper's title, an abstract or a query can
 * never become a tag, an attribute or a script, whatever it holds.
 */

/** Markup that is already safe: made by {@link html}, {@link join} or {@link raw} of a constant. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** What may go into a template: text (escaped), numbers, markup, lists of these, or nothing. */
export type HtmlValue = string | number | Html | null | undefined | false | readonly HtmlValue[];

const ESCAPES: ReadonlyMap<string, string> = new Map(Object.entries({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }));
/** Characters HTML does not allow in text (C0 controls but tab and newline, C1 controls), dropped. */
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/**
 * Text as HTML text or a quoted attribute value: `&<>"'` escaped, control characters dropped.
 * @example escapeHtml('<b title="x">') // '&lt;b title=&quot;x&quot;&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(FORBIDDEN, '').replace(/[&<>"']/g, (c) => ESCAPES.get(c)!);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * Markup with every interpolated value escaped (attribute values must be quoted in the template).
 * @example html`<a href="${url}">${title}</a>`
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Items joined by a separator (itself text or markup). */
export function join(items: readonly HtmlValue[], separator: HtmlValue): Html {
  return new Html(items.map(render).filter((s) => s !== '').join(render(separator)));
}

/**
 * A link's address if it is one a page may carry: http(s) only (no `javascript:`, `data:`), else
 * undefined. Relative site paths (`/paper/…`) are the caller's own and pass as they are.
 * @example safeHref('javascript:alert(1)') // undefined
 */
export function safeHref(url: string | undefined): string | undefined {
  if (!url) return undefined;
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
