import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { format } from 'prettier';
import { generateDemoCatalog } from '@guest/indexer';
import type { JudgedQuery } from './evaluate.ts';

/**
 * `npx tsx test/relevance/judge.ts [--catalog]`: the judgments of the relevance suite, written
 * from the catalog's own data, never from an engine's answers. `--catalog` first writes
 * catalog.ndjson: the demo catalog (its generator, seed and places), 700 listings, one photo each
 * (photos play no part in search). Then every judged query is derived from the catalog records:
 *
 * - place: a place's name in a language (or an everyday short form, a transliteration, a typo, a
 *   Russian word form) must find exactly the published listings at or below that place;
 * - category, property type, amenity: the listings of that category / type / amenity;
 * - topic + place (spaced, unspaced in Thai and Chinese, mixed languages): both at once;
 * - generic words (rental, tour, for rent) and synonyms: the same listings as the word they go with;
 * - prefix: suggest offers the place from a prefix of its name (cut between letters, never inside
 *   a Thai vowel or tone mark);
 * - none: words no listing has, or a topic in a place that has none of it.
 *
 * Grades: 2 = what the guest asked for, 1 = acceptable (a stay whose title says "sea view" for the
 * amenity), anything else 0.
 */
const DIR = import.meta.dirname;
const CATALOG = path.join(DIR, 'catalog.ndjson');
const LANGS = ['en', 'ru', 'th', 'zh-Hans'] as const;
type Lang = (typeof LANGS)[number];
type L4 = Partial<Record<Lang, string>>;

if (process.argv.includes('--catalog')) {
  const lines: string[] = [];
  for (const r of generateDemoCatalog({ listings: 700, events: 0, seed: 20261121, today: '2026-11-20' })) {
    const rec = r as Record<string, unknown>;
    if (rec.type === 'listing' && Array.isArray(rec.photos)) rec.photos = rec.photos.slice(0, 1);
    lines.push(JSON.stringify(rec));
  }
  await writeFile(CATALOG, `${lines.join('\n')}\n`);
}

interface Place {
  external_id: string;
  parent?: string | null;
  slug: string;
  level: string;
  name: L4;
}
interface Listing {
  external_id: string;
  kind: string;
  status: string;
  place: string;
  title: L4;
  categories?: string[];
  amenities?: string[];
  stay?: { property_type: string };
}
interface Named {
  code: string;
  kind?: string;
  name: L4;
}

const records = (await readFile(CATALOG, 'utf8'))
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { type: string } & Record<string, unknown>);
const places = records.filter((r) => r.type === 'place') as unknown as Place[];
const listings = (records.filter((r) => r.type === 'listing') as unknown as Listing[]).filter(
  (l) => l.status === 'published',
);
// Event categories name no listing: the listings feed is judged here.
const categories = (records.filter((r) => r.type === 'category') as unknown as Named[]).filter(
  (c) => c.kind !== 'event',
);
const amenities = records.filter((r) => r.type === 'amenity') as unknown as Named[];
const bySlug = new Map(places.map((p) => [p.slug, p]));
const byId = new Map(places.map((p) => [p.external_id, p]));

/** Is `placeId` at or below `ancestor`? */
function within(placeId: string, ancestor: string): boolean {
  for (let p = byId.get(placeId); p; p = p.parent ? byId.get(p.parent) : undefined) {
    if (p.external_id === ancestor) return true;
  }
  return false;
}
const inPlace = (slug: string) => (l: Listing) => within(l.place, bySlug.get(slug)!.external_id);
const ofCategory = (code: string) => (l: Listing) => (l.categories ?? []).includes(code);
const ofType = (code: string) => (l: Listing) => l.stay?.property_type === code;
const withAmenity = (code: string) => (l: Listing) => (l.amenities ?? []).includes(code);
const all =
  (...ps: Array<(l: Listing) => boolean>) =>
  (l: Listing) =>
    ps.every((p) => p(l));
const graded = (pred: (l: Listing) => boolean, acceptable?: (l: Listing) => boolean) =>
  Object.fromEntries(
    listings.map((l) => [l.external_id, pred(l) ? 2 : acceptable?.(l) ? 1 : 0] as const).filter(([, g]) => g > 0),
  );

const queries: JudgedQuery[] = [];
function add(
  lang: Lang,
  q: string,
  intent: JudgedQuery['intent'],
  note: string,
  relevant: Record<string, number>,
  params: Record<string, string> = {},
) {
  if (intent !== 'none' && intent !== 'prefix' && !Object.keys(relevant).length) intent = 'none';
  if (intent === 'none') relevant = {};
  if (queries.some((x) => x.lang === lang && x.q === q && JSON.stringify(x.params) === JSON.stringify(params))) return;
  queries.push({ lang, q, params, intent, note, relevant });
}
const placeQuery = (lang: Lang, q: string, slug: string, note: string) =>
  add(lang, q, 'place', `${note} → ${slug}`, graded(inPlace(slug)));

// 1. Every place by its name in every language it has one in.
for (const p of places)
  for (const lang of LANGS) if (p.name[lang]) placeQuery(lang, p.name[lang], p.slug, 'place name');

// 2. Everyday short forms, transliterations, Chinese alternatives and pinyin.
const ALIASES: Array<[Lang, string, string]> = [
  ['en', 'Samui', 'koh-samui'],
  ['en', 'Ko Samui', 'koh-samui'],
  ['ru', 'Ко Самуи', 'koh-samui'],
  ['th', 'สมุย', 'koh-samui'],
  ['zh-Hans', '苏梅', 'koh-samui'],
  ['en', 'Khao San', 'khao-san'],
  ['ru', 'Каосан', 'khao-san'],
  ['th', 'ข้าวสาร', 'khao-san'],
  ['th', 'กรุงเทพ', 'bangkok'],
  ['en', 'Krung Thep', 'bangkok'],
  ['zh-Hans', '普吉岛', 'phuket'],
  ['zh-Hans', 'pujidao', 'phuket'],
  ['zh-Hans', '芭堤雅', 'pattaya'],
  ['zh-Hans', '巴东', 'patong'],
  ['en', 'Lanta', 'koh-lanta'],
  ['th', 'ลันตา', 'koh-lanta'],
  ['en', 'Thonglor', 'thong-lo'],
  ['en', 'Chiangmai', 'chiang-mai'],
  ['en', 'Bangtao', 'bang-tao'],
  ['en', 'Huahin', 'hua-hin'],
  ['en', 'Aonang', 'ao-nang'],
  ['ru', 'Чиангмае', 'chiang-mai'],
];
for (const [lang, q, slug] of ALIASES) placeQuery(lang, q, slug, 'short form / transliteration');

// 3. Typos: one letter swapped, missing or wrong; a Thai tone mark left out; Russian word forms.
const TYPOS: Array<[Lang, string, string]> = [
  ['en', 'Chlaong', 'chalong'],
  ['en', 'Chaweeng', 'chaweng'],
  ['en', 'Pattya', 'pattaya'],
  ['en', 'Sukhumvti', 'sukhumvit'],
  ['en', 'Bangkko', 'bangkok'],
  ['en', 'Chiang Mia', 'chiang-mai'],
  ['en', 'Jomtein', 'jomtien'],
  ['en', 'Nathn', 'nathon'],
  ['ru', 'Пхукте', 'phuket'],
  ['ru', 'Чалнг', 'chalong'],
  ['ru', 'Бангок', 'bangkok'],
  ['ru', 'Паттая', 'pattaya'],
  ['ru', 'Силлом', 'silom'],
  ['th', 'ปาตอง', 'patong'],
  ['th', 'ภูเกต', 'phuket'],
  ['th', 'เชียงไหม่', 'chiang-mai'],
  ['zh-Hans', '布吉', 'phuket'],
  ['zh-Hans', '清邁', 'chiang-mai'],
  ['zh-Hans', '華欣', 'hua-hin'],
];
for (const [lang, q, slug] of TYPOS) placeQuery(lang, q, slug, 'typo');
const FORMS: Array<[string, string]> = [
  ['в Пхукете', 'phuket'],
  ['на Самуи', 'koh-samui'],
  ['в Паттайе', 'pattaya'],
  ['в Бангкоке', 'bangkok'],
  ['в Чиангмае', 'chiang-mai'],
  ['на Ко Ланте', 'koh-lanta'],
];
for (const [q, slug] of FORMS) placeQuery('ru', q, slug, 'Russian word form');

// 4. Category names, property types and amenities in every language.
for (const c of categories) {
  for (const lang of LANGS)
    if (c.name[lang]) add(lang, c.name[lang], 'topic', `category ${c.code}`, graded(ofCategory(c.code)));
}
const TYPES: Array<[string, L4]> = [
  ['villa', { en: 'villa', ru: 'вилла', th: 'วิลล่า', 'zh-Hans': '别墅' }],
  ['apartment', { en: 'apartment', ru: 'апартаменты', th: 'อพาร์ตเมนต์', 'zh-Hans': '公寓' }],
  ['bungalow', { en: 'bungalow', ru: 'бунгало', th: 'บังกะโล', 'zh-Hans': '平房' }],
  ['guesthouse', { en: 'guesthouse', ru: 'гестхаус', th: 'เกสต์เฮาส์', 'zh-Hans': '民宿' }],
  ['condo', { en: 'condo', ru: 'кондо', th: 'คอนโด' }],
];
for (const [code, names] of TYPES) {
  for (const lang of LANGS)
    if (names[lang]) add(lang, names[lang], 'topic', `property type ${code}`, graded(ofType(code)));
}
const SEA_VIEW_TITLE: L4 = { en: 'sea-view', ru: 'с видом на море', th: 'วิวทะเล', 'zh-Hans': '海景' };
for (const code of ['pool', 'kitchen', 'gym', 'sea_view']) {
  const a = amenities.find((x) => x.code === code);
  if (!a) continue;
  for (const lang of LANGS) {
    const accept =
      code === 'sea_view'
        ? (l: Listing) => Object.values(l.title).some((t) => t?.toLowerCase().includes(SEA_VIEW_TITLE[lang]!))
        : undefined;
    if (a.name[lang]) add(lang, a.name[lang], 'topic', `amenity ${code}`, graded(withAmenity(code), accept));
  }
}

// 5. A topic in a place: spaced, written without spaces (Thai, Chinese), in two languages.
const catName = (code: string, lang: Lang) => categories.find((c) => c.code === code)!.name[lang]!;
const placeName = (slug: string, lang: Lang) => bySlug.get(slug)!.name[lang] ?? bySlug.get(slug)!.name.en!;
const PAIRS: Array<[string, string]> = [
  ['diving', 'phuket'],
  ['massage', 'bangkok'],
  ['car_rental', 'chiang-mai'],
  ['scooter_rental', 'koh-samui'],
  ['seafood', 'patong'],
  ['cooking_class', 'chiang-mai'],
  ['boat_charter', 'krabi'],
  ['yoga', 'pattaya'],
];
for (const [code, slug] of PAIRS) {
  for (const lang of LANGS) {
    const rel = graded(all(ofCategory(code), inPlace(slug)));
    add(lang, `${catName(code, lang)} ${placeName(slug, lang)}`, 'topic', `category ${code} in ${slug}`, rel);
    if (lang === 'th' || lang === 'zh-Hans') {
      const joined =
        lang === 'th'
          ? `${catName(code, lang)}${placeName(slug, lang)}`
          : `${placeName(slug, lang)}${catName(code, lang)}`;
      add(lang, joined.replace(/\s+/g, ''), 'topic', `category ${code} in ${slug}, no spaces`, rel);
    }
  }
}
for (const [code, slug] of [
  ['villa', 'phuket'],
  ['apartment', 'bangkok'],
  ['bungalow', 'koh-samui'],
] as const) {
  const names = TYPES.find(([c]) => c === code)![1];
  for (const lang of LANGS) {
    const rel = graded(all(ofType(code), inPlace(slug)));
    add(lang, `${names[lang]} ${placeName(slug, lang)}`, 'topic', `${code} in ${slug}`, rel);
    if (lang === 'th')
      add(lang, `${names[lang]}${placeName(slug, lang)}`, 'topic', `${code} in ${slug}, no spaces`, rel);
    if (lang === 'zh-Hans')
      add(lang, `${placeName(slug, lang)}${names[lang]}`, 'topic', `${code} in ${slug}, no spaces`, rel);
  }
}
// Mixed languages: the topic in one, the place in another.
const MIXED: Array<[Lang, string, (l: Listing) => boolean]> = [
  ['en', 'villa Пхукет', all(ofType('villa'), inPlace('phuket'))],
  ['ru', 'дайвинг Phuket', all(ofCategory('diving'), inPlace('phuket'))],
  ['en', 'massage กรุงเทพ', all(ofCategory('massage'), inPlace('bangkok'))],
  ['zh-Hans', '潜水 Krabi', all(ofCategory('diving'), inPlace('krabi'))],
  ['th', 'villa ภูเก็ต', all(ofType('villa'), inPlace('phuket'))],
  ['ru', 'yoga Чиангмай', all(ofCategory('yoga'), inPlace('chiang-mai'))],
];
for (const [lang, q, pred] of MIXED) add(lang, q, 'topic', 'mixed languages', graded(pred));

// 6. Generic words and synonyms must not empty an answer: they mean the same listings.
const transportIn = (code: string, slug?: string) => (slug ? all(ofCategory(code), inPlace(slug)) : ofCategory(code));
const GENERIC: Array<[Lang, string, (l: Listing) => boolean]> = [
  ['en', 'car rental', transportIn('car_rental')],
  ['en', 'car hire', transportIn('car_rental')],
  ['en', 'boat rental', transportIn('boat_charter')],
  ['en', 'boat tour', transportIn('boat_charter')],
  ['en', 'scooter rental Chiang Mai', transportIn('scooter_rental', 'chiang-mai')],
  ['en', 'rent a scooter', transportIn('scooter_rental')],
  ['en', 'villa for rent', ofType('villa')],
  ['en', 'motorbike rental Phuket', transportIn('scooter_rental', 'phuket')],
  ['en', 'island tour', ofCategory('island_tour')],
  ['ru', 'аренда скутера', transportIn('scooter_rental')],
  ['ru', 'аренда авто Пхукет', transportIn('car_rental', 'phuket')],
  ['ru', 'прокат лодок', transportIn('boat_charter')],
  ['ru', 'вилла в аренду', ofType('villa')],
  ['th', 'เช่าสกู๊ตเตอร์ ภูเก็ต', transportIn('scooter_rental', 'phuket')],
  ['th', 'เช่าเรือ', transportIn('boat_charter')],
  ['th', 'ทัวร์เกาะ', ofCategory('island_tour')],
  ['zh-Hans', '租摩托车', transportIn('scooter_rental')],
  ['zh-Hans', '包船', transportIn('boat_charter')],
  ['zh-Hans', '普吉租车', transportIn('car_rental', 'phuket')],
];
for (const [lang, q, pred] of GENERIC) add(lang, q, 'topic', 'generic words / synonyms', graded(pred));

// 7. Suggest: a place from a prefix of its name (two letters or more, between letters).
const graphemes = (s: string) =>
  [...new Intl.Segmenter('th', { granularity: 'grapheme' }).segment(s)].map((x) => x.segment);
const PREFIXED: Array<[Lang, string]> = [
  ['th', 'phuket'],
  ['th', 'bangkok'],
  ['th', 'koh-samui'],
  ['th', 'chiang-mai'],
  ['th', 'pattaya'],
  ['en', 'chiang-mai'],
  ['en', 'sukhumvit'],
  ['ru', 'phuket'],
  ['ru', 'pattaya'],
  ['zh-Hans', 'koh-samui'],
  ['zh-Hans', 'pattaya'],
];
for (const [lang, slug] of PREFIXED) {
  const g = graphemes(bySlug.get(slug)!.name[lang]!);
  for (let i = 2; i < g.length; i++)
    add(lang, g.slice(0, i).join(''), 'prefix', `suggest → ${slug}`, { [`place:${slug}`]: 2 });
}

// 8. Must find nothing: words no listing has, and topics in places that have none of them.
const NONE: Array<[Lang, string]> = [
  ['en', 'snowboard'],
  ['en', 'Paris'],
  ['en', 'xqzvw'],
  ['ru', 'сноуборд'],
  ['ru', 'Париж'],
  ['th', 'ปารีส'],
  ['th', 'สกีหิมะ'],
  ['zh-Hans', '巴黎'],
  ['zh-Hans', '滑雪'],
];
for (const [lang, q] of NONE) add(lang, q, 'none', 'nothing of this in the catalog', {});
for (const [code, slug] of [
  ['boat_charter', 'chiang-mai'],
  ['diving', 'nimman'],
  ['seafood', 'doi-suthep'],
] as const) {
  for (const lang of LANGS) {
    add(
      lang,
      `${catName(code, lang)} ${placeName(slug, lang)}`,
      'topic',
      `category ${code} in ${slug}`,
      graded(all(ofCategory(code), inPlace(slug))),
    );
  }
}

const judgments = {
  description:
    'Judged queries over test/relevance/catalog.ndjson (the demo catalog), written by judge.ts from the catalog data. relevant: external_id (or place:slug for prefix) -> grade (2 = what the guest asked for, 1 = acceptable). intent place: the whole answer must be exactly the listings at or below the place; prefix: suggest must offer the place; none: must return nothing.',
  queries,
};
await writeFile(path.join(DIR, 'judgments.json'), await format(JSON.stringify(judgments), { parser: 'json' }));
const count = (f: (q: JudgedQuery) => boolean) => queries.filter(f).length;
console.log(
  `${queries.length} queries: ${LANGS.map((l) => `${l} ${count((q) => q.lang === l)}`).join(', ')}; ` +
    `place ${count((q) => q.intent === 'place')}, topic ${count((q) => q.intent === 'topic')}, ` +
    `prefix ${count((q) => q.intent === 'prefix')}, none ${count((q) => q.intent === 'none')}`,
);
