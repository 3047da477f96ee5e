import { pinyin } from 'pinyin-pro';

/**
 * How a Chinese name sounds, loosely: guests write a Thai place name with whatever characters
 * sound like it (芭提雅 and 芭堤雅, 普吉 and 布吉, 卡塔 and 卡达), so names are compared by their
 * pinyin without tones, with the aspirated and plain initials (p/b, t/d, k/g, q/j, c/z, ch/zh)
 * and the finals -in/-ing, -en/-eng, -an/-ang taken as one: the differences Chinese
 * transliterations of Thai names make.
 */

const INITIALS: Array<[RegExp, string]> = [
  [/^ch/, 'zh'],
  [/^p/, 'b'],
  [/^t/, 'd'],
  [/^k/, 'g'],
  [/^q/, 'j'],
  [/^c/, 'z'],
];
const FINALS: Array<[RegExp, string]> = [
  [/ing$/, 'in'],
  [/eng$/, 'en'],
  [/ang$/, 'an'],
];

function loose(syllable: string): string {
  let s = syllable.toLowerCase().replace(/ü|v/g, 'u');
  for (const [re, to] of INITIALS)
    if (re.test(s)) {
      s = s.replace(re, to);
      break;
    }
  for (const [re, to] of FINALS)
    if (re.test(s)) {
      s = s.replace(re, to);
      break;
    }
  return s;
}

/** One loose syllable per character of a run of Han characters (read in context, for characters with several readings). */
export function syllables(han: string): string[] {
  return pinyin(han, { toneType: 'none', type: 'array' }).map(loose);
}

/** The sound key of a Han name: its loose syllables joined; '' when it holds anything but Han. */
export function soundKey(han: string): string {
  if (!/^\p{Script=Han}+$/u.test(han)) return '';
  return syllables(han).join('-');
}
