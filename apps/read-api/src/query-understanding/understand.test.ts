import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@guest/config';
import { buildLexicon, type PlaceInput } from './lexicon.ts';
import { placesByPrefix, understand } from './understand.ts';
import { editDistance, stem, words } from './text.ts';

const data = (f: string) => JSON.parse(readFileSync(path.join(repoRoot, 'mappings', f), 'utf8'));

const P = (id: number, slug: string, level: string, pathIds: number[], name: PlaceInput['name'], popular = false) => ({
  id,
  slug,
  level,
  popular,
  pathIds,
  name,
});
// A piece of the demo catalog's places, with the mappings' real aliases and synonyms.
const lexicon = buildLexicon({
  places: [
    P(1, 'phuket', 'region', [1], { en: 'Phuket', ru: 'Пхукет', th: 'ภูเก็ต', 'zh-Hans': '普吉' }, true),
    P(2, 'kata', 'district', [1, 2], { en: 'Kata', ru: 'Ката', th: 'กะตะ', 'zh-Hans': '卡塔' }, true),
    P(3, 'kata-noi', 'area', [1, 2, 3], { en: 'Kata Noi', ru: 'Ката Ной', th: 'กะตะน้อย', 'zh-Hans': '小卡塔' }),
    P(4, 'chalong', 'district', [1, 4], { en: 'Chalong', ru: 'Чалонг', th: 'ฉลอง', 'zh-Hans': '查龙' }),
    P(5, 'phuket-town', 'district', [1, 5], { en: 'Phuket Town', ru: 'Пхукет-таун', th: 'เมืองภูเก็ต' }),
    P(10, 'koh-samui', 'region', [10], { en: 'Koh Samui', ru: 'Самуи', th: 'เกาะสมุย', 'zh-Hans': '苏梅岛' }, true),
    P(11, 'chaweng', 'district', [10, 11], { en: 'Chaweng', ru: 'Чавенг', th: 'เฉวง', 'zh-Hans': '查汶' }),
    P(30, 'chiang-mai', 'region', [30], { en: 'Chiang Mai', ru: 'Чиангмай', th: 'เชียงใหม่', 'zh-Hans': '清迈' }),
    P(20, 'bangkok', 'region', [20], { en: 'Bangkok', ru: 'Бангкок', th: 'กรุงเทพมหานคร', 'zh-Hans': '曼谷' }, true),
  ],
  categories: [
    { code: 'car_rental', name: { en: 'Car rental', ru: 'Аренда авто', th: 'เช่ารถยนต์', 'zh-Hans': '汽车租赁' } },
    { code: 'boat_charter', name: { en: 'Boat charter', ru: 'Аренда лодок', th: 'เช่าเรือ', 'zh-Hans': '包船' } },
    { code: 'cafe', name: { en: 'Cafés', ru: 'Кафе', th: 'คาเฟ่', 'zh-Hans': '咖啡馆' } },
    { code: 'massage', name: { en: 'Massage', ru: 'Массаж', th: 'นวด', 'zh-Hans': '按摩' } },
  ],
  amenities: [{ code: 'pool', name: { en: 'Pool', ru: 'Бассейн', th: 'สระว่ายน้ำ', 'zh-Hans': '泳池' } }],
  aliases: data('place-aliases.json'),
  synonyms: data('synonyms.json'),
  intents: data('intents.json'),
  elsewhere: data('places-elsewhere.json'),
});

const placesOf = (q: string) => understand(q, lexicon).placeIds;
const wordsOf = (q: string) => understand(q, lexicon).words.map((w) => w.text);

describe('places in q: any language, aliases, exactly', () => {
  it('a name in each of the four languages selects the place', () => {
    for (const q of ['Chalong', 'Чалонг', 'ฉลอง', '查龙']) expect(placesOf(q), q).toEqual([4]);
    for (const q of ['Koh Samui', 'Samui', 'Ko Samui', 'Самуи', 'เกาะสมุย', 'สมุย', '苏梅岛', '苏梅']) {
      expect(placesOf(q), q).toEqual([10]);
    }
  });

  it('a name that is exactly a place is never read as another one', () => {
    expect(placesOf('Chalong')).toEqual([4]);
    expect(placesOf('Chaweng')).toEqual([11]);
    // Кафе is a category, one letter from nothing: never Ката.
    expect(placesOf('Кафе')).toEqual([]);
    expect(understand('Кафе', lexicon).words[0]!.vocabulary).toEqual([{ field: 'category', code: 'cafe' }]);
  });

  it('the longest name wins; a district named with its city is the district', () => {
    expect(placesOf('Kata Noi')).toEqual([3]);
    expect(placesOf('Phuket Town')).toEqual([5]);
    expect(placesOf('Phuket Kata')).toEqual([2]);
    expect(placesOf('Kata Chalong')).toEqual([2, 4]);
  });

  it('Russian word forms of a place name; prepositions are dropped', () => {
    expect(placesOf('в Пхукете')).toEqual([1]);
    expect(placesOf('на Самуи')).toEqual([10]);
    expect(wordsOf('вилла в Пхукете')).toEqual(['вилла']);
  });

  it('one wrong, missing or swapped letter still finds the place', () => {
    for (const q of ['Chalogn', 'Cahlong', 'Chalon', 'Chalomg', 'Чалнг']) {
      expect(understand(q, lexicon).placeMatches, q).toEqual([{ text: words(q)[0], ids: [4], exact: false }]);
    }
    expect(placesOf('Chwaeng')).toEqual([11]);
    expect(understand('yoga Chiang Mia', lexicon)).toMatchObject({ placeIds: [30], words: [{ text: 'yoga' }] });
    // One letter from two places: either may be meant.
    expect(placesOf('Chaleng')).toEqual([4, 11]);
    // Two letters off is no place.
    expect(placesOf('Chxleng')).toEqual([]);
  });

  it('Thai and Chinese written without spaces: the place is cut out, the rest are words', () => {
    expect(understand('นวดแผนไทยกรุงเทพ', lexicon)).toMatchObject({
      placeIds: [20],
      // นวดแผนไทย (Thai massage) is a known phrase of the massage category, cut out whole.
      words: [{ text: 'นวดแผนไทย', vocabulary: [{ field: 'category', code: 'massage' }] }],
    });
    // 租 (rent) is cut out of 租摩托车: it says rentals (the kind when nothing names one); 摩托车 is a scooter.
    expect(understand('租摩托车', lexicon)).toMatchObject({
      intents: [{ id: 'rental', effect: { defaultKind: 'transport' } }],
      words: [{ text: '摩托车', vocabulary: [{ field: 'category', code: 'scooter_rental' }] }],
    });
    expect(understand('普吉潜水', lexicon)).toMatchObject({ placeIds: [1], words: [{ text: '潜水' }] });
    expect(understand('ภูเก็ตวิลล่า', lexicon)).toMatchObject({ placeIds: [1], words: [{ text: 'วิลล่า' }] });
    // The longer name first: เมืองภูเก็ต is Phuket Town, not Phuket.
    expect(placesOf('นวดเมืองภูเก็ต')).toEqual([5]);
  });

  it('Chinese near-synonyms and pinyin of place names', () => {
    for (const q of ['普吉岛', '布吉', 'pujidao', '苏梅', 'sumeidao']) expect(placesOf(q), q).not.toEqual([]);
  });
});

describe('the other words: vocabulary, synonyms, generic words', () => {
  it('category names in every language and their single words', () => {
    for (const q of ['car rental', 'Аренда авто', 'เช่ารถยนต์', '汽车租赁']) {
      expect(
        understand(q, lexicon).words.flatMap((w) => w.vocabulary),
        q,
      ).toContainEqual({
        field: 'category',
        code: 'car_rental',
      });
    }
    expect(understand('boat', lexicon).words[0]!.vocabulary).toEqual([{ field: 'category', code: 'boat_charter' }]);
    // A single word of a curated name is not the category: "Muay Thai" does not make "thai" one.
    expect(understand('thai', lexicon).words[0]!.vocabulary).toEqual([]);
    expect(understand('бассейн', lexicon).words[0]!.vocabulary).toEqual([{ field: 'amenity', code: 'pool' }]);
  });

  it('generic words only say which kind is meant, when nothing else does; they never empty an answer', () => {
    const plan = understand('yacht tour', lexicon);
    expect(plan.words).toMatchObject([
      { text: 'yacht', generic: false, vocabulary: [{ field: 'category', code: 'boat_charter' }] },
    ]);
    expect(plan.intents).toMatchObject([{ id: 'tour', effect: { defaultKind: 'experience' } }]);
    const rent = understand('villa for rent', lexicon);
    expect(rent.intents.map((i) => i.id)).toEqual(['rental']);
    expect(rent.words.find((w) => w.text === 'villa')).toMatchObject({
      generic: false,
      vocabulary: expect.arrayContaining([{ field: 'property_type', code: 'villa' }]),
    });
    // Only generic words: then they are what is asked for.
    expect(understand('lessons', lexicon).words).toMatchObject([{ text: 'lessons', generic: false }]);
    expect(understand('rental', lexicon).intents.map((i) => i.id)).toEqual(['rental']);
  });
});

describe('intents: phrases in four languages stand for the filters of the API (mappings/intents.json)', () => {
  const intentsOf = (q: string) => understand(q, lexicon).intents.map((i) => i.id);

  it('pets, the beach, long stays, children, Wi-Fi words in every language', () => {
    for (const q of ['pet friendly', 'можно с собакой', 'พาสัตว์เลี้ยง', '可带宠物'])
      expect(intentsOf(q), q).toEqual(['pets']);
    for (const q of ['near the beach', 'у моря', 'ใกล้ทะเล', '海边', 'first line'])
      expect(intentsOf(q), q).toEqual(['beach']);
    for (const q of ['monthly', 'на месяц', 'รายเดือน', '长租']) expect(intentsOf(q), q).toEqual(['long_stay']);
    for (const q of ['with kids', 'с детьми', 'ครอบครัว', '亲子']) expect(intentsOf(q), q).toEqual(['children']);
    expect(understand('wifi', lexicon).words[0]!.vocabulary).toEqual([{ field: 'amenity', code: 'wifi' }]);
    expect(understand('pets allowed', lexicon).intents[0]!.effect.listings).toEqual({ stay: { pets_allowed: true } });
  });

  it('kind words, orders and the guest position', () => {
    expect(understand('things to do in Krabi', lexicon).intents[0]).toMatchObject({
      id: 'experience',
      effect: { kind: 'experience' },
    });
    expect(understand('ที่พักในเชียงใหม่', lexicon)).toMatchObject({
      placeIds: [30],
      intents: [{ id: 'stay', effect: { kind: 'stay' } }],
      words: [],
    });
    expect(understand('где поесть в Паттайе', lexicon).intents.map((i) => i.id)).toEqual(['food']);
    expect(understand('cheap massage', lexicon).intents[0]!.effect.rank).toBe('price_asc');
    expect(understand('scooter near me', lexicon)).toMatchObject({
      intents: [{ id: 'near_me', effect: { near: true } }],
    });
  });

  it('numbers: bedrooms, guests and seats in four languages, words for numbers too', () => {
    const filters = (q: string) => understand(q, lexicon).intents.map((i) => i.effect.listings);
    expect(filters('2 bedroom villa')).toEqual([{ stay: { bedrooms_min: 2 } }]);
    expect(filters('two bedroom villa')).toEqual([{ stay: { bedrooms_min: 2 } }]);
    expect(filters('вилла 3 спальни')).toEqual([{ stay: { bedrooms_min: 3 } }]);
    expect(filters('3 ห้องนอน')).toEqual([{ stay: { bedrooms_min: 3 } }]);
    expect(filters('两居室')).toEqual([{ stay: { bedrooms_min: 2 } }]);
    expect(filters('трансфер на 10 человек')[0]).toMatchObject({ transport: { seats_min: 10 } });
  });

  it('a word of no meaning of its own is dropped; a stray letter or a number only ranks', () => {
    expect(understand('villa in the Kata area', lexicon).words.map((w) => w.text)).toEqual(['villa']);
    expect(understand('Kata 2026', lexicon).words).toMatchObject([{ text: '2026', generic: true }]);
  });
});

describe('what the catalog does not serve: destinations elsewhere and specific things', () => {
  it('a destination elsewhere is no place here, in any language and inside unspaced text', () => {
    // A short name left between known words: ที่พัก (a place to stay) + ปาย (Pai).
    expect(understand('ที่พักปาย', lexicon).elsewhere).toEqual(['ปาย']);
    for (const q of ['Koh Tao diving', 'ко тао дайвинг', 'ดำน้ำเกาะเต่า', '巴厘岛别墅']) {
      const plan = understand(q, lexicon);
      expect(plan.elsewhere.length, q).toBe(1);
      expect(plan.placeIds, q).toEqual([]);
    }
    // A place of the catalog wins over a destination of the same name ("Тао" alone is Koh Tao; Bang Tao is not).
    expect(understand('Bang Tao', lexicon).elsewhere).toEqual([]);
  });

  it('words that name something specific are marked, so an answer never leaves them out', () => {
    expect(understand('golf Phuket', lexicon).words).toMatchObject([{ text: 'golf', specific: true }]);
    expect(understand('滑雪场', lexicon).words).toMatchObject([{ specific: true }]);
  });
});

describe('typos and other spellings of known words', () => {
  it('a word one letter off (two from eight letters) is the word it is closest to', () => {
    expect(understand('snorkling', lexicon).words[0]!.vocabulary).toEqual([{ field: 'category', code: 'snorkeling' }]);
    expect(understand('морепрадукты', lexicon).words[0]!.vocabulary).toEqual([{ field: 'category', code: 'seafood' }]);
  });

  it('Chinese written with other characters of the same sound; Thai with its tone marks left out', () => {
    // 民俗 (folk customs) sounds as 民宿 (guesthouse); 芭堤雅 as 芭提雅 (Pattaya).
    expect(understand('卡塔民俗', lexicon).words[0]!.vocabulary).toEqual([
      { field: 'property_type', code: 'guesthouse' },
    ]);
    // ดำน้ำตืน: ดำน้ำตื้น (snorkeling) typed without its tone mark.
    expect(understand('ดำน้ำตืน', lexicon).words[0]!.vocabulary).toEqual([{ field: 'category', code: 'snorkeling' }]);
  });

  it("a typo of a synonym's word is looked for as that word, in its own language and the others", () => {
    // волейбол is a synonym of volleyball, not a category: "валейбол" is one letter off it.
    const [volley] = understand('валейбол', lexicon).words;
    expect(volley!.text).toBe('валейбол');
    expect(volley!.alternatives).toEqual(expect.arrayContaining(['волейбол', 'volleyball', '排球']));
  });

  it('Thai: the last letter swapped for one of the same sound, one letter off from four', () => {
    // แจ๊ด for แจ๊ส (jazz): ด and ส both end a syllable as -t.
    expect(understand('แจ๊ด', lexicon).words[0]!.alternatives).toEqual(expect.arrayContaining(['แจ๊ส', 'jazz']));
    // อะคูสติค for อะคูสติก (acoustic): -k.
    expect(understand('อะคูสติค', lexicon).words[0]!.alternatives).toContain('อะคูสติก');
    // วอลเลบอล for วอลเลย์บอล: two letters left out of ten.
    expect(understand('วอลเลบอลชายหาด', lexicon).words.flatMap((w) => w.alternatives)).toContain('วอลเลย์บอล');
    // Under four letters, a last letter of another sound makes another word: แจ๊ม is left as typed.
    expect(understand('แจ๊ม', lexicon).words[0]!.alternatives).not.toContain('แจ๊ส');
  });

  it('Chinese: a known word written with characters of the same sound inside a longer run', () => {
    // 原生 (native) sounds as 原声 (acoustic); 夜事 as 夜市 (night market).
    expect(understand('原生之夜', lexicon).words.map((w) => w.text)).toContain('原声');
    expect(understand('夜事', lexicon).words[0]).toMatchObject({
      text: '夜市',
      alternatives: expect.arrayContaining(['night market']),
    });
    // Written right, it stays as written.
    expect(understand('原声之夜', lexicon).words.map((w) => w.text)).toContain('原声');
  });

  it('Chinese place names by their sound: 芭堤雅 is 芭提雅', () => {
    const withPattaya = buildLexicon({
      places: [P(40, 'pattaya', 'region', [40], { en: 'Pattaya', 'zh-Hans': '芭提雅' })],
      categories: [],
      amenities: [],
      aliases: {},
      synonyms: data('synonyms.json'),
      intents: data('intents.json'),
    });
    expect(understand('芭堤雅公寓', withPattaya)).toMatchObject({
      placeIds: [40],
      placeMatches: [{ text: '芭堤雅', exact: false }],
    });
  });
});

describe('places by prefix (suggest)', () => {
  it('every prefix of a Thai name finds the place, whatever letter it ends on', () => {
    const name = 'กรุงเทพมหานคร';
    for (let i = 2; i <= [...name].length; i++) {
      const prefix = [...name].slice(0, i).join('');
      expect(placesByPrefix(prefix, lexicon), prefix).toContain(20);
    }
    expect(placesByPrefix('ภูเก', lexicon)[0]).toBe(1);
    expect(placesByPrefix('ภูเก็', lexicon)[0]).toBe(1);
  });

  it('a short form inside a Thai name, a word of a name, a Russian prefix', () => {
    expect(placesByPrefix('สมุย', lexicon)).toEqual([10]);
    expect(placesByPrefix('Samu', lexicon)).toEqual([10]);
    expect(placesByPrefix('Пху', lexicon)).toEqual([1, 5]);
    expect(placesByPrefix('Noi', lexicon)).toEqual([3]);
  });
});

describe('text helpers', () => {
  it('folding keeps Thai sara am whole (NFKC would split it)', () => {
    expect(words('ดำน้ำ')).toEqual(['ดำน้ำ']);
    expect(words('ＫＡＴＡ')).toEqual(['kata']);
  });
  it('edit distance counts a swap as one', () => {
    expect(editDistance('chalong', 'cahlong')).toBe(1);
    expect(editDistance('chalong', 'chaweng')).toBe(2);
    expect(editDistance('kata', 'kata')).toBe(0);
  });
  it('Russian stems keep three letters', () => {
    expect(stem('пхукете')).toBe('пхукет');
    expect(stem('ката')).toBe('кат');
    expect(stem('кафе')).toBe('каф');
    expect(stem('ной')).toBe('ной');
  });
});
