/**
 * Languages: which one to answer in (locale.ts), the message catalogs (catalog/) and messages
 * in a language (messages.ts). Chinese search terms are read by glossary.ts and reading.ts.
 */
export { DEFAULT_LOCALE, LOCALES, languageOf, posixLocale, resolveLocale, type Locale } from './locale.js';
export {
  PSEUDO_LOCALE,
  isMessageKey,
  messages,
  msg,
  translate,
  type Localized,
  type Message,
  type MessageKey,
  type MessageList,
  type MessageValue,
  type MessageValues,
  type Messages,
} from './messages.js';
export { GLOSSARY_FILE, loadGlossary, type Glossary } from './glossary.js';
export { createDictionary, readQuery, type Dictionary, type QueryReading, type Reading } from './reading.js';
export { toSimplified } from './simplify.js';
