/**
 * Analyzer equivalence of the two engines: creates an index with the project's analysis settings
 * (mappings/settings.json) on OpenSearch and on Elasticsearch, runs `_analyze` on the same texts
 * (en, ru, th, zh-Hans: place names, listing titles, Thai and Chinese without spaces, Russian word
 * forms, digits and diacritics) and compares every token: text, position, offsets, type. A second
 * index does the same for the other components the Elasticsearch analysis plugin provides (n-grams,
 * synonyms, stemmers, char filters, ...), with the parameters a portable mapping may use.
 *
 *   npm run check:analyzers                       # engines at OPENSEARCH_URL / ELASTICSEARCH_URL (else 9200 / 9250)
 *   npm run check:analyzers -- --start            # start whichever is missing with the stack script first
 *   npm run check:analyzers -- --opensearch URL --elasticsearch URL [--json FILE] [--verbose]
 *
 * Exit 0: every token equal; 1: a difference (each one is printed); 2: an engine missing or an
 * index refused. Closing line: "check-analyzers: N passed, N failed".
 */
import { writeFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ensureElasticsearch } from './stack/elasticsearch.ts';
import { ensureOpenSearch } from './stack/opensearch.ts';
import { errorText, httpJson, repoRoot, withLock } from './stack/util.ts';

type Lang = 'en' | 'ru' | 'th' | 'zh-Hans' | 'mixed';

/** Texts per language; every analyzer is run on every text (also the "wrong" language: that must agree too). */
const TEXTS: Record<Lang, string[]> = {
  en: [
    'Phuket',
    'Patong Beach, Kathu District, Phuket 83150',
    'Sea-view villa with private pool near Kata Noi beach',
    'Running, swimming and snorkeling tours to the Phi Phi Islands',
    "Chef's Thai cooking class: learn 5 dishes (vegetarian-friendly)",
    'Airport transfer — 24/7, up to 10 passengers, child seats',
    'The BEST sunsets at Promthep Cape!!!',
    'Two-bedroom apartments; kitchens & balconies; wi-fi',
  ],
  ru: [
    'Пхукет',
    'Пляж Патонг, район Кату',
    'Вилла с видом на море и частным бассейном',
    'Красивые пляжи Пхукета, виллы у моря',
    'экскурсия экскурсии экскурсию экскурсией экскурсиях',
    'остров острова островов островами на островах',
    'Тайский массаж и спа-салоны рядом с отелем',
    'Ёлки, ёжики и всё остальное: Ё/е',
  ],
  th: [
    'ภูเก็ต',
    'หาดป่าตองกะทู้ภูเก็ต',
    'วิลล่าวิวทะเลพร้อมสระว่ายน้ำส่วนตัว',
    'สวัสดีครับยินดีต้อนรับสู่เกาะพีพี',
    'ทัวร์ดำน้ำดูปะการังเกาะเฮ',
    'ราคา ๑๒๓๔ บาท ต่อคืน',
    'ร้านอาหารทะเลสดริมหาดราไวย์',
    'นวดแผนไทยและสปา ใกล้โรงแรม',
  ],
  'zh-Hans': [
    '普吉岛',
    '芭东海滩卡图区普吉府',
    '海景别墅带私人泳池',
    '我们去普吉岛的海滩度假',
    '皮皮岛浮潜一日游含午餐',
    '泰式按摩和水疗中心靠近酒店',
    '机场接送服务全天二十四小时',
    '攀牙湾皮划艇观光２０２４年',
  ],
  mixed: [
    'Café Ko Phi Phi ２０２４ — Phố cổ, Ñandú, Straße',
    'Villa Ánh Dương (ภูเก็ต) 普吉岛 Пхукет',
    'e-mail: info@example.com https://example.com/villa?id=1',
    '🏖️ Beach villa 🌴 5★',
  ],
};

/** The project's settings (mappings/settings.json): must be equal on both engines. */
function projectAnalysis(): { analyzers: string[]; settings: Record<string, unknown> } {
  const raw = JSON.parse(readFileSync(path.join(repoRoot, 'mappings', 'settings.json'), 'utf8')) as {
    analysis: { analyzer: Record<string, unknown> };
  };
  return {
    analyzers: [...Object.keys(raw.analysis.analyzer), 'english', 'russian', 'thai', 'cjk', 'standard'],
    settings: { number_of_shards: 1, number_of_replicas: 0, analysis: raw.analysis },
  };
}

/**
 * Components the plugin provides beyond what the mappings use today, with parameters a portable
 * mapping may use (edge n-gram suggest fields, synonyms, stemmers, char filters). Each analyzer
 * below is compared like the project's.
 */
const COMPONENTS = {
  number_of_shards: 1,
  number_of_replicas: 0,
  max_ngram_diff: 3,
  analysis: {
    char_filter: {
      map_amp: { type: 'mapping', mappings: ['& => and', 'ё => е', 'Ё => Е'] },
      digits_only: { type: 'pattern_replace', pattern: '[^0-9 ]', replacement: '' },
      nfkc: { type: 'icu_normalizer', name: 'nfkc_cf' },
    },
    tokenizer: {
      edge_2_10: { type: 'edge_ngram', min_gram: 2, max_gram: 10, token_chars: ['letter', 'digit'] },
      ngram_2_4: { type: 'ngram', min_gram: 2, max_gram: 4, token_chars: ['letter', 'digit'] },
      ws: { type: 'whitespace', max_token_length: 20 },
      words: { type: 'pattern', pattern: '[\\s,;:!?()]+' },
    },
    filter: {
      edge_1_12: { type: 'edge_ngram', min_gram: 1, max_gram: 12 },
      edge_keep: { type: 'edge_ngram', min_gram: 2, max_gram: 5, preserve_original: true },
      ngram_3: { type: 'ngram', min_gram: 3, max_gram: 3 },
      shingle_2_3: { type: 'shingle', min_shingle_size: 2, max_shingle_size: 3 },
      ru_stem: { type: 'stemmer', language: 'russian' },
      ru_light: { type: 'stemmer', language: 'light_russian' },
      en_stem: { type: 'stemmer', language: 'english' },
      en_possessive: { type: 'stemmer', language: 'possessive_english' },
      en_light: { type: 'stemmer', language: 'light_english' },
      en_snowball: { type: 'snowball', language: 'English' },
      en_stop: { type: 'stop', stopwords: '_english_' },
      ru_stop: { type: 'stop', stopwords: '_russian_' },
      fold_keep: { type: 'asciifolding', preserve_original: true },
      place_synonyms: {
        type: 'synonym_graph',
        synonyms: ['phuket, пхукет, ภูเก็ต, 普吉岛', 'ko, koh, island', 'bkk => bangkok'],
      },
      place_synonyms_flat: { type: 'synonym', synonyms: ['phuket, пхукет', 'villa, house'] },
      protect: { type: 'keyword_marker', keywords: ['patong', 'kata'] },
      uniq: { type: 'unique' },
      len_2_20: { type: 'length', min: 2, max: 20 },
      trunc_5: { type: 'truncate', length: 5 },
      lim_5: { type: 'limit', max_token_count: 5 },
      bigrams: { type: 'cjk_bigram', output_unigrams: true },
      latin: { type: 'icu_transform', id: 'Any-Latin; NFD; [:Nonspacing Mark:] Remove; NFC' },
      nfc: { type: 'icu_normalizer', name: 'nfc' },
      fold_no_cyr: { type: 'icu_folding', unicode_set_filter: '[^а-яёА-ЯЁ]' },
      lower_tr: { type: 'lowercase', language: 'turkish' },
      elide: { type: 'elision', articles: ['l', 'd'], articles_case: true },
    },
    analyzer: {
      suggest_edge: {
        type: 'custom',
        tokenizer: 'icu_tokenizer',
        filter: ['icu_folding', 'lowercase', 'edge_1_12'],
      },
      suggest_edge_tok: { type: 'custom', tokenizer: 'edge_2_10', filter: ['lowercase'] },
      ngram_tok: { type: 'custom', tokenizer: 'ngram_2_4', filter: ['lowercase'] },
      ngram_filter: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'ngram_3'] },
      edge_keep: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'edge_keep'] },
      shingles: { type: 'custom', tokenizer: 'icu_tokenizer', filter: ['icu_folding', 'lowercase', 'shingle_2_3'] },
      ru_custom: {
        type: 'custom',
        tokenizer: 'standard',
        char_filter: ['map_amp'],
        filter: ['lowercase', 'ru_stop', 'ru_stem'],
      },
      ru_light: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'ru_light', 'uniq'] },
      en_custom: {
        type: 'custom',
        tokenizer: 'standard',
        char_filter: ['html_strip', 'map_amp'],
        filter: ['en_possessive', 'lowercase', 'en_stop', 'protect', 'en_stem'],
      },
      en_light: { type: 'custom', tokenizer: 'classic', filter: ['classic', 'lowercase', 'en_light', 'len_2_20'] },
      en_snowball: {
        type: 'custom',
        tokenizer: 'whitespace',
        filter: ['lowercase', 'en_snowball', 'kstem', 'porter_stem'],
      },
      folded: { type: 'custom', tokenizer: 'ws', filter: ['fold_keep', 'lowercase', 'trim', 'trunc_5', 'lim_5'] },
      synonyms: { type: 'custom', tokenizer: 'icu_tokenizer', filter: ['icu_folding', 'lowercase', 'place_synonyms'] },
      synonyms_flat: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'place_synonyms_flat'] },
      thai_words: { type: 'custom', tokenizer: 'thai', filter: ['lowercase', 'decimal_digit', 'remove_duplicates'] },
      cjk_bi: { type: 'custom', tokenizer: 'standard', filter: ['cjk_width', 'lowercase', 'bigrams'] },
      translit: { type: 'custom', tokenizer: 'icu_tokenizer', filter: ['latin', 'lowercase'] },
      nfkc_chars: { type: 'custom', tokenizer: 'keyword', char_filter: ['nfkc'], filter: ['nfc'] },
      fold_latin_only: { type: 'custom', tokenizer: 'icu_tokenizer', filter: ['fold_no_cyr', 'lower_tr'] },
      digits: { type: 'custom', tokenizer: 'words', char_filter: ['digits_only'], filter: ['reverse', 'uppercase'] },
      urls: { type: 'custom', tokenizer: 'uax_url_email', filter: ['lowercase', 'elide', 'apostrophe'] },
      letters: { type: 'custom', tokenizer: 'letter', filter: ['asciifolding', 'decimal_digit'] },
      icu_plain: { type: 'icu_analyzer' },
      simple_t: { type: 'simple' },
      stop_t: { type: 'stop' },
      en_t: { type: 'english', stem_exclusion: ['running'] },
      ru_t: { type: 'russian', stopwords: ['и', 'с'] },
      thai_t: { type: 'thai' },
      cjk_t: { type: 'cjk' },
    },
  },
};

interface Token {
  token: string;
  start_offset: number;
  end_offset: number;
  type: string;
  position: number;
  positionLength?: number;
}

interface Engine {
  name: 'opensearch' | 'elasticsearch';
  url: string;
  version?: string;
}

interface Diff {
  index: string;
  analyzer: string;
  lang: Lang;
  text: string;
  opensearch: Token[] | string;
  elasticsearch: Token[] | string;
}

function args(argv: string[]): { os?: string; es?: string; start: boolean; json?: string; verbose: boolean } {
  const out: { os?: string; es?: string; start: boolean; json?: string; verbose: boolean } = {
    start: false,
    verbose: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--opensearch') out.os = argv[++i];
    else if (a === '--elasticsearch') out.es = argv[++i];
    else if (a === '--json') out.json = argv[++i];
    else if (a === '--start') out.start = true;
    else if (a === '--verbose' || a === '-v') out.verbose = true;
    else
      throw new Error(`unknown option ${a} (--opensearch URL, --elasticsearch URL, --start, --json FILE, --verbose)`);
  }
  return out;
}

async function call(engine: Engine, method: string, p: string, body?: unknown): Promise<unknown> {
  const res = await httpJson(`${engine.url}${p}`, method, body, 60_000);
  if (res.status >= 300)
    throw new Error(`${engine.name} ${method} ${p}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Checks that the URL answers and is the engine it is said to be; notes its version. */
async function identify(engine: Engine): Promise<void> {
  const res = await httpJson(`${engine.url}/_nodes/_local?filter_path=nodes.*.version`, 'GET', undefined, 10_000);
  if (res.status !== 200) throw new Error(`${engine.name} at ${engine.url}: HTTP ${res.status}`);
  const isElastic = res.headers['x-elastic-product'] === 'Elasticsearch';
  if (isElastic !== (engine.name === 'elasticsearch')) {
    throw new Error(`${engine.url} is ${isElastic ? 'Elasticsearch' : 'not Elasticsearch'}, expected ${engine.name}`);
  }
  const nodes = (res.body as { nodes?: Record<string, { version: string }> }).nodes ?? {};
  engine.version = Object.values(nodes)[0]?.version;
}

async function analyze(engine: Engine, index: string, analyzer: string, text: string): Promise<Token[] | string> {
  try {
    const r = (await call(engine, 'POST', `/${index}/_analyze`, { analyzer, text })) as { tokens: Token[] };
    return r.tokens.map((t) => ({
      token: t.token,
      start_offset: t.start_offset,
      end_offset: t.end_offset,
      type: t.type,
      position: t.position,
      ...(t.positionLength !== undefined && t.positionLength !== 1 ? { positionLength: t.positionLength } : {}),
    }));
  } catch (err) {
    return `ERROR ${errorText(err)}`;
  }
}

const show = (t: Token[] | string): string =>
  typeof t === 'string'
    ? t
    : t
        .map(
          (x) =>
            `${x.token}@${x.position}${x.positionLength ? `+${x.positionLength}` : ''}[${x.start_offset}-${x.end_offset}]${x.type}`,
        )
        .join(' ');

async function main(): Promise<number> {
  const opts = args(process.argv.slice(2));
  const log = (l: string): void => console.log(l);
  let osUrl = opts.os ?? process.env.OPENSEARCH_URL;
  let esUrl = opts.es ?? process.env.ELASTICSEARCH_URL;
  if (opts.start) {
    // same lock as `npm run stack:up`: never two starts of one engine at once
    await withLock(
      'stack',
      async () => {
        const ctx = { log, env: process.env };
        if (!osUrl) osUrl = (await ensureOpenSearch({ log, env: { ...process.env, OPENSEARCH_URL: '' } })).url;
        if (!esUrl) esUrl = (await ensureElasticsearch({ ...ctx, env: { ...process.env, SEARCH_URL: '' } })).url;
      },
      log,
    );
  }
  const engines: Engine[] = [
    { name: 'opensearch', url: (osUrl ?? 'http://127.0.0.1:9200').replace(/\/+$/, '') },
    { name: 'elasticsearch', url: (esUrl ?? 'http://127.0.0.1:9250').replace(/\/+$/, '') },
  ];
  for (const e of engines) {
    try {
      await identify(e);
    } catch (err) {
      console.error(`check-analyzers: ${errorText(err)} (start it with --start, or give --${e.name} URL)`);
      return 2;
    }
  }
  const [os, es] = engines as [Engine, Engine];
  log(`check-analyzers: OpenSearch ${os.version} at ${os.url}  vs  Elasticsearch ${es.version} at ${es.url}`);

  const project = projectAnalysis();
  const suffix = `${process.pid}-${Date.now()}`;
  const indices = [
    { index: `check-analyzers-project-${suffix}`, settings: project.settings, analyzers: project.analyzers },
    {
      index: `check-analyzers-components-${suffix}`,
      settings: COMPONENTS,
      analyzers: Object.keys(COMPONENTS.analysis.analyzer),
    },
  ];

  // the throw-away indices go away also on Ctrl-C, a kill, or a closed pipe (`| head`)
  const cleanup = async (): Promise<void> => {
    for (const { index } of indices)
      for (const e of engines) await call(e, 'DELETE', `/${index}`).catch(() => undefined);
  };
  process.stdout.on('error', () => undefined);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => void cleanup().finally(() => process.exit(130)));
  }

  const diffs: Diff[] = [];
  let passed = 0;
  const perAnalyzer = new Map<string, { same: number; differ: number }>();
  try {
    for (const { index, settings } of indices) {
      for (const e of engines) {
        try {
          await call(e, 'PUT', `/${index}`, { settings });
        } catch (err) {
          console.error(`check-analyzers: ${e.name} refused the index ${index}: ${errorText(err)}`);
          return 2;
        }
      }
    }
    for (const { index, analyzers } of indices) {
      for (const analyzer of analyzers) {
        const stats = { same: 0, differ: 0 };
        perAnalyzer.set(`${index.startsWith('check-analyzers-project') ? 'project' : 'components'}/${analyzer}`, stats);
        for (const [lang, texts] of Object.entries(TEXTS) as [Lang, string[]][]) {
          for (const text of texts) {
            const [a, b] = await Promise.all([analyze(os, index, analyzer, text), analyze(es, index, analyzer, text)]);
            const same = JSON.stringify(a) === JSON.stringify(b) && typeof a !== 'string';
            if (same) {
              passed++;
              stats.same++;
              if (opts.verbose) log(`  = ${analyzer} [${lang}] ${text}\n      ${show(a)}`);
            } else {
              stats.differ++;
              diffs.push({ index, analyzer, lang, text, opensearch: a, elasticsearch: b });
            }
          }
        }
      }
    }
  } finally {
    await cleanup();
  }

  for (const [name, s] of perAnalyzer) {
    log(`  ${s.differ === 0 ? 'same  ' : 'DIFFER'} ${name.padEnd(32)} ${s.same} text(s) equal, ${s.differ} differ`);
  }
  for (const d of diffs) {
    log(`\nDIFFERENCE ${d.analyzer} [${d.lang}] ${JSON.stringify(d.text)}`);
    log(`  opensearch    ${show(d.opensearch)}`);
    log(`  elasticsearch ${show(d.elasticsearch)}`);
  }
  if (opts.json) {
    writeFileSync(
      opts.json,
      JSON.stringify({ opensearch: os, elasticsearch: es, passed, failed: diffs.length, differences: diffs }, null, 2) +
        '\n',
    );
  }
  const texts = Object.values(TEXTS).reduce((n, t) => n + t.length, 0);
  log(
    `\ncheck-analyzers: ${perAnalyzer.size} analyzers x ${texts} texts (en, ru, th, zh-Hans, mixed) on both engines` +
      (diffs.length === 0 ? ': every token equal (text, position, offsets, type)' : `: ${diffs.length} difference(s)`),
  );
  log(`check-analyzers: ${passed} passed, ${diffs.length} failed`);
  return diffs.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`check-analyzers: ERROR ${errorText(err)}`);
    process.exit(2);
  },
);
