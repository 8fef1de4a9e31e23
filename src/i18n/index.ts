/**
 * Languages: which one to answer in (locale.ts), the message catalogs (catalog/) and messages
 * in a language (messages.ts). Chinese search terms are read by glossary.ts and reading.ts, other
 * Chinese words by cedict.ts.
 */
export { DEFAULT_LOCALE, LOCALES, acceptedLocale, posixLocale, resolveLocale, type Locale } from './locale.js';
export {
  PSEUDO_LOCALE,
  isMessageKey,
  messages,
  msg,
  translate,
  type Localized,
  type Message,
  type MessageKey,
  type MessageValues,
  type Messages,
} from './messages.js';
export { loadGlossary } from './glossary.js';
export { createDictionary, readQuery, type Dictionary, type QueryReading } from './reading.js';
export { withCedict } from './cedict.js';
