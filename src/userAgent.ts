/**
 * How Paper Scout names itself to the services it fetches from. Configuration builds the
 * User-Agent from PAPERSCOUT_CONTACT; the HTTP clients send it (or the bare one when none is
 * configured).
 */

const PRODUCT = 'PaperScout/0.1';

/**
 * The User-Agent Paper Scout sends: the product, what it is, and the contact of whoever runs it
 * (PAPERSCOUT_CONTACT), as arXiv and OpenAlex ask of harvesters.
 * @example userAgent('lab@example.org') // 'PaperScout/0.1 (paper-search bot for research groups; mailto:lab@example.org)'
 * @example userAgent('https://lab.example.org/bot') // 'PaperScout/0.1 (paper-search bot for research groups; +https://lab.example.org/bot)'
 */
export function userAgent(contact?: string): string {
  const who = contact ? (/^https?:\/\//i.test(contact) ? `; +${contact}` : `; mailto:${contact}`) : '';
  return `${PRODUCT} (paper-search bot for research groups${who})`;
}
