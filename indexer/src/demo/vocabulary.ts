/** Words the demo generator composes titles and descriptions from, in the four languages. */
export type L4 = { en: string; ru: string; th: string; 'zh-Hans': string };
const w = (en: string, ru: string, th: string, zh: string): L4 => ({ en, ru, th, 'zh-Hans': zh });

export const STAY_TYPES: Array<{ code: string; name: L4 }> = [
  { code: 'villa', name: w('villa', 'вилла', 'วิลล่า', '别墅') },
  { code: 'apartment', name: w('apartment', 'апартаменты', 'อพาร์ตเมนต์', '公寓') },
  { code: 'condo', name: w('condo', 'кондо', 'คอนโด', '公寓楼') },
  { code: 'house', name: w('house', 'дом', 'บ้าน', '房子') },
  { code: 'bungalow', name: w('bungalow', 'бунгало', 'บังกะโล', '平房') },
  { code: 'guesthouse', name: w('guesthouse', 'гестхаус', 'เกสต์เฮาส์', '民宿') },
  { code: 'hotel_room', name: w('hotel room', 'номер в отеле', 'ห้องพักโรงแรม', '酒店客房') },
];

/** English/Thai/Chinese adjectives; the Russian side is a phrase after the noun (no gender agreement needed). */
export const STAY_ADJECTIVES: Array<L4 & { beach?: boolean }> = [
  { ...w('Cozy', 'с уютным двориком', 'แสนสบาย', '舒适的') },
  { ...w('Sea-view', 'с видом на море', 'วิวทะเล', '海景'), beach: true },
  { ...w('Modern', 'в современном стиле', 'ทันสมัย', '现代') },
  { ...w('Quiet', 'в тихом месте', 'เงียบสงบ', '安静的') },
  { ...w('Spacious', 'с большой гостиной', 'กว้างขวาง', '宽敞的') },
  { ...w('Tropical', 'в тропическом саду', 'เขตร้อน', '热带') },
  { ...w('Family', 'для всей семьи', 'สำหรับครอบครัว', '家庭') },
];

export const EXPERIENCES: Array<{ code: string; name: L4; title: L4 }> = [
  {
    code: 'diving',
    name: w('Diving', 'Дайвинг', 'ดำน้ำลึก', '潜水'),
    title: w('Scuba diving trip', 'Дайвинг-тур', 'ทริปดำน้ำลึก', '水肺潜水之旅'),
  },
  {
    code: 'snorkeling',
    name: w('Snorkeling', 'Снорклинг', 'ดำน้ำตื้น', '浮潜'),
    title: w('Snorkeling at the reef', 'Снорклинг на рифе', 'ดำน้ำตื้นชมปะการัง', '珊瑚礁浮潜'),
  },
  {
    code: 'cooking_class',
    name: w('Cooking class', 'Кулинарный класс', 'เรียนทำอาหาร', '烹饪课'),
    title: w('Thai cooking class', 'Урок тайской кухни', 'คลาสเรียนทำอาหารไทย', '泰国烹饪课'),
  },
  {
    code: 'muay_thai',
    name: w('Muay Thai', 'Муай-тай', 'มวยไทย', '泰拳'),
    title: w('Muay Thai training', 'Тренировка по муай-тай', 'ฝึกมวยไทย', '泰拳训练'),
  },
  {
    code: 'island_tour',
    name: w('Island tours', 'Экскурсии по островам', 'ทัวร์เกาะ', '海岛游'),
    title: w('Island hopping tour', 'Тур по островам', 'ทัวร์เที่ยวเกาะ', '跳岛游'),
  },
  {
    code: 'yoga',
    name: w('Yoga', 'Йога', 'โยคะ', '瑜伽'),
    title: w('Morning yoga session', 'Утренняя йога', 'โยคะยามเช้า', '晨间瑜伽'),
  },
  {
    code: 'hiking',
    name: w('Hiking', 'Походы', 'เดินป่า', '徒步'),
    title: w('Jungle hiking', 'Поход по джунглям', 'เดินป่าในป่าดงดิบ', '丛林徒步'),
  },
];

export const SERVICES: Array<{ code: string; name: L4; title: L4 }> = [
  {
    code: 'massage',
    name: w('Massage', 'Массаж', 'นวด', '按摩'),
    title: w('Thai massage at home', 'Тайский массаж на дому', 'นวดแผนไทยถึงบ้าน', '上门泰式按摩'),
  },
  {
    code: 'photographer',
    name: w('Photographer', 'Фотограф', 'ช่างภาพ', '摄影师'),
    title: w('Holiday photo shoot', 'Фотосессия на отдыхе', 'ถ่ายภาพวันหยุด', '度假摄影'),
  },
  {
    code: 'tailor',
    name: w('Tailor', 'Портной', 'ช่างตัดเสื้อ', '裁缝'),
    title: w('Made-to-measure suit', 'Костюм на заказ', 'สูทตัดตามสั่ง', '定制西装'),
  },
  {
    code: 'cleaning',
    name: w('Cleaning', 'Уборка', 'ทำความสะอาด', '清洁'),
    title: w('Villa cleaning', 'Уборка виллы', 'ทำความสะอาดวิลล่า', '别墅清洁'),
  },
  {
    code: 'nanny',
    name: w('Nanny', 'Няня', 'พี่เลี้ยงเด็ก', '保姆'),
    title: w('English-speaking nanny', 'Англоговорящая няня', 'พี่เลี้ยงเด็กพูดอังกฤษ', '说英语的保姆'),
  },
];

export const TRANSPORT: Array<{ code: string; vehicle: string; name: L4; title: L4; seats: [number, number] }> = [
  {
    code: 'scooter_rental',
    vehicle: 'scooter',
    name: w('Scooter rental', 'Аренда скутеров', 'เช่าสกู๊ตเตอร์', '摩托车租赁'),
    title: w('Scooter for rent', 'Скутер в аренду', 'สกู๊ตเตอร์ให้เช่า', '出租摩托车'),
    seats: [1, 2],
  },
  {
    code: 'car_rental',
    vehicle: 'car',
    name: w('Car rental', 'Аренда авто', 'เช่ารถยนต์', '汽车租赁'),
    title: w('Car for rent', 'Автомобиль в аренду', 'รถยนต์ให้เช่า', '出租汽车'),
    seats: [4, 7],
  },
  {
    code: 'boat_charter',
    vehicle: 'boat',
    name: w('Boat charter', 'Аренда лодок', 'เช่าเรือ', '包船'),
    title: w('Speedboat charter', 'Аренда скоростной лодки', 'เช่าเรือเร็ว', '快艇包船'),
    seats: [6, 20],
  },
  {
    code: 'transfer',
    vehicle: 'van',
    name: w('Transfers', 'Трансферы', 'รถรับส่ง', '接送'),
    title: w('Airport transfer', 'Трансфер из аэропорта', 'รถรับส่งสนามบิน', '机场接送'),
    seats: [3, 10],
  },
  {
    code: 'bicycle_rental',
    vehicle: 'bicycle',
    name: w('Bicycle rental', 'Аренда велосипедов', 'เช่าจักรยาน', '自行车租赁'),
    title: w('City bicycle', 'Городской велосипед', 'จักรยานในเมือง', '城市自行车'),
    seats: [1, 1],
  },
];

export const FOOD: Array<{ code: string; format: string; name: L4; title: L4 }> = [
  {
    code: 'seafood',
    format: 'restaurant',
    name: w('Seafood', 'Морепродукты', 'อาหารทะเล', '海鲜'),
    title: w('Seafood restaurant', 'Ресторан морепродуктов', 'ร้านอาหารทะเล', '海鲜餐厅'),
  },
  {
    code: 'street_food',
    format: 'street_food',
    name: w('Street food', 'Уличная еда', 'อาหารริมทาง', '街头小吃'),
    title: w('Pad thai stall', 'Лоток с пад-таем', 'ร้านผัดไทย', '泰式炒河粉摊'),
  },
  {
    code: 'cafe',
    format: 'cafe',
    name: w('Cafés', 'Кафе', 'คาเฟ่', '咖啡馆'),
    title: w('Garden café', 'Кафе в саду', 'คาเฟ่ในสวน', '花园咖啡馆'),
  },
  {
    code: 'vegan_food',
    format: 'restaurant',
    name: w('Vegan', 'Веган', 'วีแกน', '纯素'),
    title: w('Vegan kitchen', 'Веганская кухня', 'ครัววีแกน', '纯素厨房'),
  },
  {
    code: 'rooftop_bar',
    format: 'bar',
    name: w('Rooftop bars', 'Бары на крыше', 'รูฟท็อปบาร์', '屋顶酒吧'),
    title: w('Rooftop bar', 'Бар на крыше', 'รูฟท็อปบาร์', '屋顶酒吧'),
  },
];

export const EVENT_CATEGORIES: Array<{ code: string; name: L4; titles: L4[]; night?: boolean }> = [
  {
    code: 'music',
    name: w('Music', 'Музыка', 'ดนตรี', '音乐'),
    titles: [
      w('Live jazz evening', 'Вечер живого джаза', 'ค่ำคืนแจ๊สสด', '现场爵士之夜'),
      w('Acoustic night', 'Акустический вечер', 'คืนอะคูสติก', '原声之夜'),
    ],
  },
  {
    code: 'market',
    name: w('Markets', 'Рынки', 'ตลาด', '市场'),
    titles: [
      w('Night market', 'Ночной рынок', 'ตลาดกลางคืน', '夜市'),
      w('Weekend walking street', 'Пешеходная улица выходного дня', 'ถนนคนเดินสุดสัปดาห์', '周末步行街'),
    ],
  },
  {
    code: 'wellness',
    name: w('Wellness', 'Здоровье', 'สุขภาพ', '健康'),
    titles: [
      w('Sunrise yoga on the beach', 'Йога на рассвете на пляже', 'โยคะยามพระอาทิตย์ขึ้นริมหาด', '海滩日出瑜伽'),
      w('Sound healing', 'Звуковая медитация', 'บำบัดด้วยเสียง', '声音疗愈'),
    ],
  },
  {
    code: 'nightlife',
    name: w('Nightlife', 'Ночная жизнь', 'ไนท์ไลฟ์', '夜生活'),
    titles: [
      w('Beach party', 'Пляжная вечеринка', 'ปาร์ตี้ริมหาด', '海滩派对'),
      w('Full moon party', 'Вечеринка полнолуния', 'ฟูลมูนปาร์ตี้', '满月派对'),
    ],
    night: true,
  },
  {
    code: 'sport',
    name: w('Sport', 'Спорт', 'กีฬา', '运动'),
    titles: [
      w('Muay Thai fight night', 'Вечер боёв муай-тай', 'ศึกมวยไทย', '泰拳比赛之夜'),
      w('Beach volleyball cup', 'Кубок по пляжному волейболу', 'ถ้วยวอลเลย์บอลชายหาด', '沙滩排球杯'),
    ],
  },
  {
    code: 'festival',
    name: w('Festivals', 'Фестивали', 'เทศกาล', '节日'),
    titles: [
      w('Lantern festival', 'Фестиваль фонариков', 'เทศกาลโคมลอย', '水灯节'),
      w('Food festival', 'Гастрономический фестиваль', 'เทศกาลอาหาร', '美食节'),
    ],
  },
  {
    code: 'kids',
    name: w('For kids', 'Для детей', 'สำหรับเด็ก', '儿童'),
    titles: [w('Kids art workshop', 'Детский арт-мастер-класс', 'เวิร์กช็อปศิลปะเด็ก', '儿童艺术工作坊')],
  },
];

export const AMENITIES: Array<{ code: string; group: string; kinds: string[]; name: L4 }> = [
  { code: 'pool', group: 'facilities', kinds: ['stay'], name: w('Pool', 'Бассейн', 'สระว่ายน้ำ', '泳池') },
  {
    code: 'wifi',
    group: 'essentials',
    kinds: ['stay', 'experience', 'service'],
    name: w('Wi-Fi', 'Wi-Fi', 'ไวไฟ', '无线网络'),
  },
  { code: 'kitchen', group: 'essentials', kinds: ['stay'], name: w('Kitchen', 'Кухня', 'ห้องครัว', '厨房') },
  {
    code: 'air_conditioning',
    group: 'essentials',
    kinds: ['stay'],
    name: w('Air conditioning', 'Кондиционер', 'เครื่องปรับอากาศ', '空调'),
  },
  { code: 'parking', group: 'facilities', kinds: ['stay'], name: w('Parking', 'Парковка', 'ที่จอดรถ', '停车场') },
  {
    code: 'washer',
    group: 'facilities',
    kinds: ['stay'],
    name: w('Washing machine', 'Стиральная машина', 'เครื่องซักผ้า', '洗衣机'),
  },
  {
    code: 'workspace',
    group: 'facilities',
    kinds: ['stay'],
    name: w('Workspace', 'Рабочее место', 'พื้นที่ทำงาน', '工作区'),
  },
  { code: 'gym', group: 'facilities', kinds: ['stay'], name: w('Gym', 'Спортзал', 'ยิม', '健身房') },
  { code: 'sea_view', group: 'views', kinds: ['stay'], name: w('Sea view', 'Вид на море', 'วิวทะเล', '海景') },
  {
    code: 'transfer_included',
    group: 'included',
    kinds: ['experience', 'service'],
    name: w('Transfer included', 'Трансфер включён', 'รวมรถรับส่ง', '含接送'),
  },
  { code: 'equipment', group: 'included', kinds: ['experience'], name: w('Equipment', 'Снаряжение', 'อุปกรณ์', '装备') },
  { code: 'lunch', group: 'included', kinds: ['experience'], name: w('Lunch', 'Обед', 'อาหารกลางวัน', '午餐') },
  {
    code: 'home_visit',
    group: 'included',
    kinds: ['service'],
    name: w('Home visit', 'Выезд на дом', 'บริการถึงบ้าน', '上门服务'),
  },
];

export const DESCRIPTION_PARTS: { [k: string]: L4 } = {
  near: w('A few minutes from', 'В нескольких минутах от', 'ห่างจาก', '距离'),
  friendly: w(
    'Friendly hosts, fast replies.',
    'Дружелюбные хозяева, быстро отвечают.',
    'เจ้าของที่พักเป็นมิตร ตอบเร็ว',
    '房东友好，回复迅速。',
  ),
  book: w(
    'Book for your next trip.',
    'Бронируйте на следующую поездку.',
    'จองสำหรับการเดินทางครั้งต่อไป',
    '为您的下一次旅行预订。',
  ),
};

export const DIETS = ['vegan', 'vegetarian', 'halal', 'gluten_free'];
export const CURRENCIES: Array<{ code: string; name: L4; symbol: string; rate: number }> = [
  { code: 'THB', name: w('Thai baht', 'Тайский бат', 'บาท', '泰铢'), symbol: '฿', rate: 1 },
  { code: 'USD', name: w('US dollar', 'Доллар США', 'ดอลลาร์สหรัฐ', '美元'), symbol: '$', rate: 0.0281 },
  { code: 'EUR', name: w('Euro', 'Евро', 'ยูโร', '欧元'), symbol: '€', rate: 0.0262 },
  { code: 'RUB', name: w('Russian ruble', 'Российский рубль', 'รูเบิลรัสเซีย', '俄罗斯卢布'), symbol: '₽', rate: 2.61 },
  { code: 'CNY', name: w('Chinese yuan', 'Китайский юань', 'หยวนจีน', '人民币'), symbol: '¥', rate: 0.2 },
];
