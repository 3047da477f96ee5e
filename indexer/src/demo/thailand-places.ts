/**
 * Real places of Thailand for the demo catalog: regions, their districts and some areas, with
 * real centre coordinates and names in the four content languages. A few names are left out on
 * purpose (English fallback must work).
 */
export interface DemoPlace {
  key: string;
  parent: string | null;
  level: 'country' | 'region' | 'district' | 'area';
  name: { en: string; ru?: string; th?: string; 'zh-Hans'?: string };
  lat: number;
  lon: number;
  popular?: boolean;
  /** Relative share of listings placed here. */
  weight?: number;
  beach?: boolean;
}

const p = (
  key: string,
  parent: string | null,
  level: DemoPlace['level'],
  en: string,
  ru: string | undefined,
  th: string | undefined,
  zh: string | undefined,
  lat: number,
  lon: number,
  extra: Partial<DemoPlace> = {},
): DemoPlace => ({
  key,
  parent,
  level,
  name: { en, ...(ru ? { ru } : {}), ...(th ? { th } : {}), ...(zh ? { 'zh-Hans': zh } : {}) },
  lat,
  lon,
  ...extra,
});

export const THAILAND: DemoPlace[] = [
  p('thailand', null, 'country', 'Thailand', 'Таиланд', 'ประเทศไทย', '泰国', 13.7563, 100.5018),

  p('phuket', 'thailand', 'region', 'Phuket', 'Пхукет', 'ภูเก็ต', '普吉', 7.8804, 98.3923, { popular: true }),
  p('patong', 'phuket', 'district', 'Patong', 'Патонг', 'ป่าตอง', '芭东', 7.8961, 98.2966, {
    popular: true,
    weight: 5,
    beach: true,
  }),
  p('kata', 'phuket', 'district', 'Kata', 'Ката', 'กะตะ', '卡塔', 7.8206, 98.2986, {
    popular: true,
    weight: 4,
    beach: true,
  }),
  p('karon', 'phuket', 'district', 'Karon', 'Карон', 'กะรน', '卡伦', 7.8477, 98.2944, { weight: 3, beach: true }),
  p('rawai', 'phuket', 'district', 'Rawai', 'Равай', 'ราไวย์', '拉威', 7.7795, 98.3257, { weight: 3, beach: true }),
  p('kamala', 'phuket', 'district', 'Kamala', 'Камала', 'กมลา', '卡马拉', 7.9566, 98.2838, { weight: 2, beach: true }),
  p('phuket-town', 'phuket', 'district', 'Phuket Town', 'Пхукет-таун', 'เมืองภูเก็ต', '普吉镇', 7.8847, 98.3881, {
    weight: 3,
  }),
  p('chalong', 'phuket', 'district', 'Chalong', 'Чалонг', 'ฉลอง', '查龙', 7.8446, 98.3375, { weight: 2 }),
  p('bang-tao', 'phuket', 'district', 'Bang Tao', 'Банг Тао', 'บางเทา', '邦涛', 7.9917, 98.295, {
    weight: 2,
    beach: true,
  }),
  p('kata-noi', 'kata', 'area', 'Kata Noi', 'Ката Ной', 'กะตะน้อย', '小卡塔', 7.8118, 98.2962, {
    weight: 1,
    beach: true,
  }),
  p('nai-harn', 'rawai', 'area', 'Nai Harn', 'Най Харн', 'ในหาน', '奈汉', 7.7781, 98.3045, { weight: 1, beach: true }),
  p('laguna', 'bang-tao', 'area', 'Laguna', 'Лагуна', 'ลากูน่า', undefined, 8.0, 98.303, { weight: 1, beach: true }),

  p('bangkok', 'thailand', 'region', 'Bangkok', 'Бангкок', 'กรุงเทพมหานคร', '曼谷', 13.7563, 100.5018, {
    popular: true,
  }),
  p('sukhumvit', 'bangkok', 'district', 'Sukhumvit', 'Сукхумвит', 'สุขุมวิท', '素坤逸', 13.737, 100.56, {
    popular: true,
    weight: 5,
  }),
  p('silom', 'bangkok', 'district', 'Silom', 'Силом', 'สีลม', '是隆', 13.7286, 100.534, { weight: 3 }),
  p('pathum-wan', 'bangkok', 'district', 'Pathum Wan', 'Патхумван', 'ปทุมวัน', '巴吞旺', 13.7465, 100.5348, {
    weight: 3,
  }),
  p('phra-nakhon', 'bangkok', 'district', 'Phra Nakhon', 'Пхра Накхон', 'พระนคร', '帕那空', 13.7563, 100.493, {
    weight: 3,
  }),
  p('chatuchak', 'bangkok', 'district', 'Chatuchak', 'Чатучак', 'จตุจักร', '乍都节', 13.8283, 100.5545, { weight: 2 }),
  p('khlong-san', 'bangkok', 'district', 'Khlong San', 'Кхлонгсан', 'คลองสาน', '空讪', 13.73, 100.51, { weight: 2 }),
  p('thong-lo', 'sukhumvit', 'area', 'Thong Lo', 'Тонглор', 'ทองหล่อ', '通罗', 13.7325, 100.5827, { weight: 2 }),
  p('asok', 'sukhumvit', 'area', 'Asok', 'Асок', 'อโศก', '阿索克', 13.737, 100.5603, { weight: 2 }),
  p('khao-san', 'phra-nakhon', 'area', 'Khao San Road', 'Каосан-роуд', 'ถนนข้าวสาร', '考山路', 13.7589, 100.4974, {
    weight: 1,
  }),

  p('chiang-mai', 'thailand', 'region', 'Chiang Mai', 'Чиангмай', 'เชียงใหม่', '清迈', 18.7883, 98.9853, {
    popular: true,
  }),
  p('cm-old-city', 'chiang-mai', 'district', 'Old City', 'Старый город', 'เมืองเก่า', '古城', 18.7877, 98.9931, {
    weight: 3,
  }),
  p('nimman', 'chiang-mai', 'district', 'Nimman', 'Нимман', 'นิมมาน', '宁曼', 18.8, 98.9676, {
    popular: true,
    weight: 3,
  }),
  p('mae-rim', 'chiang-mai', 'district', 'Mae Rim', 'Мэрим', 'แม่ริม', '湄林', 18.914, 98.944, { weight: 1 }),
  p('doi-suthep', 'chiang-mai', 'district', 'Doi Suthep', 'Дой Сутхеп', 'ดอยสุเทพ', '素贴山', 18.8048, 98.9216, {
    weight: 1,
  }),
  p('hang-dong', 'chiang-mai', 'district', 'Hang Dong', undefined, 'หางดง', '杭东', 18.687, 98.919, { weight: 1 }),

  p('krabi', 'thailand', 'region', 'Krabi', 'Краби', 'กระบี่', '甲米', 8.0863, 98.9063, { popular: true }),
  p('ao-nang', 'krabi', 'district', 'Ao Nang', 'Ао Нанг', 'อ่าวนาง', '奥南', 8.0326, 98.8235, {
    popular: true,
    weight: 3,
    beach: true,
  }),
  p('railay', 'krabi', 'district', 'Railay', 'Райли', 'ไร่เลย์', '莱利', 8.0115, 98.8382, { weight: 1, beach: true }),
  p('krabi-town', 'krabi', 'district', 'Krabi Town', 'Краби-таун', 'เมืองกระบี่', '甲米镇', 8.0863, 98.9063, {
    weight: 1,
  }),
  p('klong-muang', 'krabi', 'district', 'Klong Muang', 'Клонг Муанг', 'คลองม่วง', undefined, 8.0533, 98.7534, {
    weight: 1,
    beach: true,
  }),
  p('koh-lanta', 'krabi', 'district', 'Koh Lanta', 'Ко Ланта', 'เกาะลันตา', '兰达岛', 7.624, 99.079, {
    weight: 2,
    beach: true,
  }),

  p('koh-samui', 'thailand', 'region', 'Koh Samui', 'Самуи', 'เกาะสมุย', '苏梅岛', 9.512, 100.0136, { popular: true }),
  p('chaweng', 'koh-samui', 'district', 'Chaweng', 'Чавенг', 'เฉวง', '查汶', 9.5318, 100.0614, {
    popular: true,
    weight: 3,
    beach: true,
  }),
  p('lamai', 'koh-samui', 'district', 'Lamai', 'Ламай', 'ละไม', '拉迈', 9.469, 100.047, { weight: 2, beach: true }),
  p('bophut', 'koh-samui', 'district', 'Bophut', 'Бопхут', 'บ่อผุด', '波普', 9.556, 100.0262, { weight: 2, beach: true }),
  p('maenam', 'koh-samui', 'district', 'Maenam', 'Маенам', 'แม่น้ำ', '湄南', 9.571, 99.996, { weight: 1, beach: true }),
  p('nathon', 'koh-samui', 'district', 'Nathon', 'Натон', 'หน้าทอน', '纳通', 9.535, 99.936, { weight: 1 }),
  p(
    'fishermans-village',
    'bophut',
    'area',
    "Fisherman's Village",
    'Рыбацкая деревня',
    'หมู่บ้านชาวประมง',
    '渔人村',
    9.56,
    100.029,
    { weight: 1, beach: true },
  ),

  p('pattaya', 'thailand', 'region', 'Pattaya', 'Паттайя', 'พัทยา', '芭提雅', 12.9236, 100.8825, { popular: true }),
  p(
    'central-pattaya',
    'pattaya',
    'district',
    'Central Pattaya',
    'Центральная Паттайя',
    'พัทยากลาง',
    '芭提雅中心',
    12.93,
    100.88,
    { weight: 3, beach: true },
  ),
  p('jomtien', 'pattaya', 'district', 'Jomtien', 'Джомтьен', 'จอมเทียน', '宗甸', 12.878, 100.87, {
    weight: 3,
    beach: true,
  }),
  p('naklua', 'pattaya', 'district', 'Naklua', 'Наклуа', 'นาเกลือ', '纳克鲁阿', 12.966, 100.89, {
    weight: 2,
    beach: true,
  }),
  p('pratumnak', 'pattaya', 'district', 'Pratumnak', 'Пратамнак', 'พระตำหนัก', undefined, 12.911, 100.865, {
    weight: 1,
    beach: true,
  }),

  p('hua-hin', 'thailand', 'region', 'Hua Hin', 'Хуахин', 'หัวหิน', '华欣', 12.5684, 99.9577),
  p('khao-takiab', 'hua-hin', 'district', 'Khao Takiab', 'Кхао Такиап', 'เขาตะเกียบ', '猴子山', 12.519, 99.983, {
    weight: 1,
    beach: true,
  }),
  p('cha-am', 'hua-hin', 'district', 'Cha-am', 'Ча-Ам', 'ชะอำ', '七岩', 12.799, 99.966, { weight: 1, beach: true }),
];
