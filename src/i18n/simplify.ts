/**
 * Traditional Chinese as Simplified, for matching what a reader in Taiwan or Hong Kong types
 * (強化學習, 視訊生成) against the glossary and topic names, which are Simplified. OpenCC
 * (opencc-js): text that has Traditional characters goes through the Taiwan converter with
 * regional words (視訊 → 视频, 資料集 → 数据集); Simplified text is left exactly as it is (the
 * phrase tables would otherwise rewrite some of its words). The library and its dictionaries
 * load on the first Chinese text, not at start-up.
 */
import { createRequire } from 'node:module';
import type * as OpenCC from 'opencc-js/t2cn';

const HAN = /\p{Script=Han}/u;
type Convert = (text: string) => string;
let converters: { characters: Convert; phrases: Convert } | undefined;

/**
 * @example toSimplified('強化學習 視訊生成') // '强化学习 视频生成'
 */
export function toSimplified(text: string): string {
  if (!HAN.test(text)) return text;
  if (!converters) {
    const { Converter } = createRequire(import.meta.url)('opencc-js/t2cn') as typeof OpenCC;
    converters = { characters: Converter({ from: 'tw', to: 'cn' }), phrases: Converter({ from: 'twp', to: 'cn' }) };
  }
  return converters.characters(text) === text ? text : converters.phrases(text);
}
