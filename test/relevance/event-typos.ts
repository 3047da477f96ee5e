/**
 * Event words misspelled the way guests misspell them, in four languages (written for the
 * engine-independent typo handling of query understanding, apart from both halves of the judged
 * suite): a letter left out, doubled, swapped or wrong; Russian vowels written as heard; Thai
 * tone marks and silent letters left out, a last letter of the same sound; Chinese typed by sound
 * (another character of the same pinyin). Each must find events of the kind it names: `stem` is
 * part of the slug of every event of that kind in the suite's catalog.
 */
export const EVENT_TYPOS: ReadonlyArray<{ lang: 'en' | 'ru' | 'th' | 'zh-Hans'; q: string; stem: string }> = [
  ...(
    [
      ['ful moon party', 'full-moon'],
      ['fool moon party', 'full-moon'],
      ['lantern festivel', 'lantern'],
      ['lanturn festival', 'lantern'],
      ['lantern festivall patong', 'lantern'],
      ['muay tai fight', 'muay-thai'],
      ['muay thay', 'muay-thai'],
      ['thai boxing', 'muay-thai'],
      ['jaz night', 'jazz'],
      ['live jaz', 'jazz'],
      ['sound healling', 'sound-healing'],
      ['sunrise yogga', 'yoga'],
      ['yoga on the beech', 'yoga'],
      ['night markt', 'night-market'],
      ['nigth market', 'night-market'],
      ['walking stret', 'walking-street'],
      ['beach voleyball', 'volleyball'],
      ['acustic night', 'acoustic'],
      ['accoustic night', 'acoustic'],
      ['kids art worshop', 'art-workshop'],
      ['food festval', 'food-festival'],
      ['beach pary', 'beach-party'],
    ] as const
  ).map(([q, stem]) => ({ lang: 'en' as const, q, stem })),
  ...(
    [
      ['вечиринка полнолуния', 'full-moon'],
      ['фестивль фонариков', 'lantern'],
      ['фестиваль фанариков', 'lantern'],
      ['муай тай', 'muay-thai'],
      ['тайский бокс', 'muay-thai'],
      ['джас', 'jazz'],
      ['живой джас', 'jazz'],
      ['звуковая медитацыя', 'sound-healing'],
      ['йога на расвете', 'yoga'],
      ['ночной рынак', 'night-market'],
      ['пешеходная улица', 'walking-street'],
      ['пляжный валейбол', 'volleyball'],
      ['акустичекий вечер', 'acoustic'],
      ['детский арт мастеркласс', 'art-workshop'],
      ['гастрономичиский фестиваль', 'food-festival'],
      ['пляжная вечиринка', 'beach-party'],
    ] as const
  ).map(([q, stem]) => ({ lang: 'ru' as const, q, stem })),
  ...(
    [
      ['ฟลูมูนปาร์ตี้', 'full-moon'],
      ['ฟูลมูน ปาตี้', 'full-moon'],
      ['เทศกาลโคมลอบ', 'lantern'],
      ['มวยไท', 'muay-thai'],
      ['แจ๊ด', 'jazz'],
      ['แจ๊สสด', 'jazz'],
      ['บำบัดเสียง', 'sound-healing'],
      ['โยคะ ริมหาด', 'yoga'],
      ['ตลาดกลางคืืน', 'night-market'],
      ['ตลาดนัดกลางคืน', 'night-market'],
      ['ถนนคนเดิน', 'walking-street'],
      ['วอลเลบอลชายหาด', 'volleyball'],
      ['อะคูสติค', 'acoustic'],
      ['เวิร์คช็อปศิลปะเด็ก', 'art-workshop'],
      ['เทศกาลอาหา', 'food-festival'],
      ['ปาตี้ริมหาด', 'beach-party'],
      ['คอนเสิตแจ๊ส', 'jazz'],
    ] as const
  ).map(([q, stem]) => ({ lang: 'th' as const, q, stem })),
  ...(
    [
      ['夜事', 'night-market'],
      ['爵仕', 'jazz'],
      ['满月排对', 'full-moon'],
      ['水等节', 'lantern'],
      ['泰全', 'muay-thai'],
      ['美食结', 'food-festival'],
      ['瑜枷', 'yoga'],
      ['步行接', 'walking-street'],
      ['沙滩排求', 'volleyball'],
      ['原生之夜', 'acoustic'],
      ['声音疗育', 'sound-healing'],
      ['海谈派对', 'beach-party'],
      ['儿童艺术工做坊', 'art-workshop'],
    ] as const
  ).map(([q, stem]) => ({ lang: 'zh-Hans' as const, q, stem })),
];
