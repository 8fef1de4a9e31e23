import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { messages, posixLocale, resolveLocale } from '../../src/i18n/index.js';

describe('resolveLocale', () => {
  it.each([
    ['zh-CN', 'zh-CN'],
    ['zh-TW', 'zh-CN'],
    ['zh-HK', 'zh-CN'],
    ['zh-Hant-TW', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['zh_CN.UTF-8', 'zh-CN'],
    ['zh_TW.Big5@stroke', 'zh-CN'],
    ['en-US', 'en'],
    ['en-GB', 'en'],
    ['fr', 'en'],
    ['ja', 'en'],
    ['C', 'en'],
    ['POSIX', 'en'],
    ['C.UTF-8', 'en'],
    ['', 'en'],
    [undefined, 'en'],
    ['not a locale!!', 'en'],
  ])('%s → %s', (tag, expected) => {
    expect(resolveLocale(tag)).toBe(expected);
  });

  it('gives the same Chinese to Traditional-Chinese readers', () => {
    expect(messages('zh-TW').t('paper.similar')).toBe('相似论文');
    expect(messages('zh-HK').t('paper.similar')).toBe('相似论文');
    expect(messages('pt-BR').t('paper.similar')).toBe('Similar papers');
  });
});

describe('the terminal’s locale', () => {
  it('takes LC_ALL over LC_MESSAGES over LANG, as POSIX does, empty meaning unset', () => {
    expect(posixLocale({ LANG: 'zh_CN.UTF-8' })).toBe('zh_CN.UTF-8');
    expect(posixLocale({ LANG: 'zh_CN.UTF-8', LC_MESSAGES: 'en_US.UTF-8' })).toBe('en_US.UTF-8');
    expect(posixLocale({ LANG: 'en_US.UTF-8', LC_MESSAGES: 'en_GB.UTF-8', LC_ALL: 'zh_TW.UTF-8' })).toBe('zh_TW.UTF-8');
    expect(posixLocale({ LANG: 'zh_CN.UTF-8', LC_ALL: '' })).toBe('zh_CN.UTF-8');
    expect(posixLocale({})).toBeUndefined();
  });

  it('is read by loadConfig, the only reader of the environment', () => {
    expect(loadConfig({ LANG: 'zh_CN.UTF-8' }).locale).toBe('zh_CN.UTF-8');
    expect(loadConfig({ LANG: 'en_US.UTF-8', LC_ALL: 'zh_HK.UTF-8' }).locale).toBe('zh_HK.UTF-8');
    expect(loadConfig({}).locale).toBeUndefined();
  });
});

describe('numbers, dates and lists by language', () => {
  const day = new Date('2026-11-29T08:00:00Z');
  it('formats dates as each language reads them, in the given time zone', () => {
    expect(messages('en').date(day, 'Europe/Paris')).toBe('Sunday, 29 November 2026');
    expect(messages('zh-CN').date(day, 'Asia/Shanghai')).toBe('2026年11月29日星期日');
    expect(messages('zh-CN').date(new Date('2026-11-29T20:00:00Z'), 'Asia/Shanghai')).toBe('2026年11月30日星期一');
  });

  it('counts with plurals in English and without in Chinese', () => {
    expect(messages('en').t('paper.count', { shown: 1, page: 1, pages: 1 })).toBe('1 paper · page 1 of 1');
    expect(messages('en').t('paper.count', { shown: 12, page: 1, pages: 3 })).toBe('12 papers · page 1 of 3');
    expect(messages('zh-CN').t('paper.count', { shown: 12, page: 1, pages: 3 })).toBe('12 篇论文 · 第 1/3 页');
    expect(messages('en').t('paper.countOfTotal', { shown: 50, total: 100903, page: 2, pages: 10 })).toBe('50 best of 100,903 papers · page 2 of 10');
    expect(messages('zh-CN').t('paper.countOfTotal', { shown: 50, total: 100903, page: 2, pages: 10 })).toBe('100,903 篇中最相关的 50 篇 · 第 2/10 页');
  });

  it('joins lists with each language’s words', () => {
    expect(messages('en').list(['a', 'b', 'c'])).toBe('a, b and c');
    expect(messages('zh-CN').list(['a', 'b', 'c'])).toBe('a、b和c');
  });
});
