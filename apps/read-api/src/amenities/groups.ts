import { pickText, type ContentLanguage, type ListingKind, type Texts } from '@guest/catalog';

/** An amenity as the catalog table holds it. */
export interface AmenityRow {
  id: number;
  code: string;
  group: string;
  kinds: string[];
  name: Texts;
}

/** Names of the amenity groups the catalog uses; an unknown group is named after its code. */
export const AMENITY_GROUPS: Record<string, Texts> = {
  essentials: { en: 'Essentials', ru: 'Основное', th: 'สิ่งจำเป็น', 'zh-Hans': '基本设施' },
  facilities: { en: 'Facilities', ru: 'Удобства', th: 'สิ่งอำนวยความสะดวก', 'zh-Hans': '设施' },
  internet: { en: 'Internet', ru: 'Интернет', th: 'อินเทอร์เน็ต', 'zh-Hans': '网络' },
  kitchen: { en: 'Kitchen', ru: 'Кухня', th: 'ห้องครัว', 'zh-Hans': '厨房' },
  safety: { en: 'Safety', ru: 'Безопасность', th: 'ความปลอดภัย', 'zh-Hans': '安全' },
  included: { en: 'Included', ru: 'Включено', th: 'รวมอยู่ในราคา', 'zh-Hans': '包含' },
  views: { en: 'Views', ru: 'Виды', th: 'วิว', 'zh-Hans': '景观' },
};
const GROUP_ORDER = Object.keys(AMENITY_GROUPS);

function humanize(code: string): string {
  const s = code.replace(/[_-]+/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Pure: rows in, groups out (optionally only amenities applicable to `kind`). */
export function groupAmenities(rows: AmenityRow[], kind: string | null, lang: ContentLanguage) {
  const groups = new Map<string, AmenityRow[]>();
  for (const r of rows) {
    if (kind && !r.kinds.includes(kind)) continue;
    (groups.get(r.group) ?? groups.set(r.group, []).get(r.group)!).push(r);
  }
  const rank = (g: string) => (GROUP_ORDER.includes(g) ? GROUP_ORDER.indexOf(g) : GROUP_ORDER.length);
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([group, items]) => {
      const mapped = items.map((r) => ({
        code: r.code,
        name: pickText(r.name, lang, lang)?.text ?? r.code,
        kinds: r.kinds as ListingKind[],
      }));
      mapped.sort((a, b) => a.name.localeCompare(b.name, lang) || a.code.localeCompare(b.code));
      return {
        group,
        name: (AMENITY_GROUPS[group] && pickText(AMENITY_GROUPS[group]!, lang, lang)?.text) ?? humanize(group),
        items: mapped,
      };
    });
}

/** Pure: the amenities `codes` names, in their order, in `lang`; a code the table lacks is named after itself. */
export function nameAmenities(rows: AmenityRow[], codes: readonly string[], lang: ContentLanguage) {
  const byCode = new Map(rows.map((r) => [r.code, r]));
  return codes.map((code) => {
    const row = byCode.get(code);
    return { code, name: (row && pickText(row.name, lang, lang)?.text) ?? humanize(code) };
  });
}
