import { englishStem } from './english-stem.js';
import { withinOneEdit } from './one-edit.js';

/**
 * Words that mean the same in online-shop customer service, across English, Chinese and Japanese.
 * A message and a FAQ phrasing rarely share their words ("money back" / "refund" / 退钱 / 返金); each
 * word of a group also yields the group's concept term (`~refund`), which the index weighs like any
 * other term (a concept found in many entries counts little). English words are stemmed, Chinese
 * words match jieba words or character bigrams, Japanese words match kanji runs, their bigrams or
 * katakana words. A FAQ of another trade still works without these; it only misses the bridges.
 */
const GROUPS: Readonly<Record<string, { en?: string[]; zh?: string[]; ja?: string[] }>> = {
  refund: { en: ['refund', 'reimburse', 'reimbursement', 'moneyback', 'money'], zh: ['退款', '退钱', '退回来', '返还'], ja: ['返金', '払い戻し', '払戻'] },
  return: { en: ['return', 'returns', 'returning', 'sendback'], zh: ['退货', '退回', '寄回', '退'], ja: ['返品', '返送', '送り返'] },
  exchange: { en: ['exchange', 'swap', 'replace', 'replacement'], zh: ['换货', '更换', '换'], ja: ['交換', '取り替', '取替'] },
  deliver: { en: ['deliver', 'delivery', 'delivered', 'ship', 'shipping', 'shipped', 'shipment', 'dispatch', 'dispatched', 'arrive', 'arrival', 'courier', 'postage', 'post', 'mail'], zh: ['发货', '配送', '送货', '到货', '快递', '物流', '寄', '送到', '派送', '邮寄'], ja: ['配送', '発送', '配達', '届', '到着', '出荷', '送'] },
  parcel: { en: ['parcel', 'package', 'packet', 'box'], zh: ['包裹', '快递', '箱子', '盒子'], ja: ['荷物', '小包', '箱'] },
  cost: { en: ['cost', 'costs', 'fee', 'fees', 'charge', 'charges', 'price', 'pricing', 'expensive', 'cheap'], zh: ['费用', '多少钱', '价格', '价钱', '收费', '费'], ja: ['料金', '費用', '値段', '価格', 'いくら', '代'] },
  free: { en: ['free', 'complimentary'], zh: ['免费', '包邮', '免邮'], ja: ['無料', 'タダ'] },
  fast: { en: ['express', 'fast', 'faster', 'quick', 'quicker', 'urgent', 'urgently', 'nextday', 'overnight', 'rush', 'asap'], zh: ['加急', '快点', '急', '次日达', '急用', '顺丰'], ja: ['速達', '急ぎ', 'お急ぎ', '翌日'] },
  time: { en: ['long', 'days', 'soon', 'eta'], zh: ['多久', '几天', '什么时候', '多长时间'], ja: ['いつ', 'どのくらい', 'どれくらい', '何日'] },
  cancel: { en: ['cancel', 'cancellation', 'cancelled', 'canceled', 'revoke', 'withdraw'], zh: ['取消', '撤销', '不要了', '不想要', '退单'], ja: ['キャンセル', '取り消', '取消', 'やめ'] },
  change: { en: ['change', 'modify', 'edit', 'update', 'alter', 'amend', 'correct'], zh: ['修改', '更改', '改', '变更'], ja: ['変更', '変え', '修正', '変'] },
  address: { en: ['address', 'adress', 'location'], zh: ['地址', '收货地址'], ja: ['住所', '届け先', '配送先'] },
  pay: { en: ['pay', 'paying', 'payment', 'payments', 'paid', 'checkout'], zh: ['付款', '支付', '付钱', '付', '结账', '买单'], ja: ['支払', '払', '決済', '会計'] },
  card: { en: ['card', 'visa', 'mastercard', 'amex', 'credit', 'debit'], zh: ['信用卡', '银行卡', '卡'], ja: ['カード', 'クレジットカード', 'クレカ'] },
  paypal: { en: ['paypal', 'alipay', 'wechat', 'applepay'], zh: ['支付宝', '微信', '花呗'], ja: ['ペイパル', 'paypay'] },
  instalment: { en: ['instalment', 'instalments', 'installment', 'installments', 'monthly', 'later', 'klarna', 'split', 'financing'], zh: ['分期', '先买后付', '花呗'], ja: ['分割', '後払い', '分割払い'] },
  fail: { en: ['fail', 'failed', 'failing', 'declined', 'decline', 'rejected', 'error', 'denied', 'unsuccessful'], zh: ['失败', '不成功', '付不了', '报错', '错误'], ja: ['失敗', 'エラー', '拒否', '通らない'] },
  twice: { en: ['twice', 'double', 'duplicate'], zh: ['两次', '重复', '二次'], ja: ['二重', '2回', '二回', '重複'] },
  currency: { en: ['currency', 'dollar', 'dollars', 'usd', 'euro', 'euros', 'eur', 'pound', 'pounds', 'yen', 'rmb', 'yuan'], zh: ['货币', '币种', '美元', '人民币', '欧元', '日元'], ja: ['通貨', 'ドル', '円', 'ユーロ', '日本円'] },
  safe: { en: ['safe', 'secure', 'security', 'encrypted', 'trust'], zh: ['安全', '泄露'], ja: ['安全', 'セキュリティ'] },
  invoice: { en: ['invoice', 'receipt', 'bill', 'vat'], zh: ['发票', '收据', '开票'], ja: ['領収書', '請求書', 'インボイス', '明細'] },
  coupon: { en: ['coupon', 'voucher', 'promo', 'discount', 'code', 'promotion'], zh: ['优惠券', '优惠码', '折扣码', '券', '优惠', '折扣'], ja: ['クーポン', '割引', 'プロモーション', 'コード'] },
  invalid: { en: ['invalid', 'work', 'working', 'accepted', 'apply', 'applied', 'expired'], zh: ['无效', '用不了', '不能用', '失效'], ja: ['無効', '使えない', '適用されない', '適用'] },
  gift: { en: ['gift', 'present', 'giftcard'], zh: ['礼品', '礼物', '送人', '送朋友'], ja: ['ギフト', 'プレゼント', '贈り物'] },
  wrap: { en: ['wrap', 'wrapping', 'wrapped', 'packaging'], zh: ['包装'], ja: ['ラッピング', '包装', '梱包'] },
  balance: { en: ['balance', 'remaining', 'left'], zh: ['余额', '剩多少', '还剩'], ja: ['残高', '残り'] },
  points: { en: ['points', 'loyalty', 'reward', 'rewards', 'member', 'membership'], zh: ['积分', '会员'], ja: ['ポイント', '会員'] },
  student: { en: ['student', 'students', 'teacher', 'teachers', 'university', 'educator'], zh: ['学生', '学生证', '教师', '老师'], ja: ['学生', '学割', '教職員'] },
  bulk: { en: ['bulk', 'wholesale', 'quantity', 'volume', 'corporate', 'units', 'pieces'], zh: ['批发', '批量', '大量', '采购', '团购'], ja: ['卸', '大量', 'まとめ買い', '法人'] },
  stock: { en: ['stock', 'restock', 'available', 'availability', 'soldout', 'sold'], zh: ['缺货', '补货', '有货', '库存', '卖完'], ja: ['在庫', '入荷', '再入荷', '品切れ', '売り切れ'] },
  preorder: { en: ['preorder', 'reserve', 'reservation', 'release', 'released'], zh: ['预订', '预定', '预售', '预约'], ja: ['予約', '発売'] },
  size: { en: ['size', 'sizes', 'sizing', 'fit', 'fits', 'small', 'large', 'medium', 'measurements'], zh: ['尺码', '码', '大小', '尺寸'], ja: ['サイズ', 'サイズ感', '寸法'] },
  wash: { en: ['wash', 'washing', 'clean', 'cleaning', 'care', 'dryer', 'laundry'], zh: ['洗', '清洗', '保养', '机洗', '洗衣机'], ja: ['洗濯', '洗', 'お手入れ', '手入れ', 'クリーニング'] },
  material: { en: ['material', 'materials', 'made', 'fabric', 'dimensions', 'specification', 'specifications', 'specs', 'measurements'], zh: ['材质', '材料', '面料', '规格', '参数'], ja: ['素材', '材質', '仕様', 'スペック'] },
  genuine: { en: ['genuine', 'authentic', 'original', 'real', 'fake', 'counterfeit', 'replica'], zh: ['正品', '假货', '真的', '假的', '正版'], ja: ['本物', '偽物', '正規品', 'ニセモノ'] },
  broken: { en: ['broken', 'break', 'broke', 'stopped', 'faulty', 'defect', 'defective', 'malfunction'], zh: ['坏', '坏了', '故障', '不响', '不能用'], ja: ['故障', '壊', '動かない', '不具合'] },
  damaged: { en: ['damaged', 'damage', 'cracked', 'smashed', 'shattered', 'crushed', 'dented', 'scratched'], zh: ['破损', '碎了', '压坏', '摔坏', '碎'], ja: ['破損', '割', '傷', 'つぶれ'] },
  warranty: { en: ['warranty', 'guarantee', 'guaranteed'], zh: ['保修', '保固', '质保'], ja: ['保証'] },
  repair: { en: ['repair', 'repairs', 'fix', 'fixed'], zh: ['维修', '修理', '修'], ja: ['修理', '直'] },
  abroad: { en: ['international', 'internationally', 'abroad', 'overseas', 'country', 'countries', 'worldwide', 'europe', 'usa', 'uk', 'canada', 'australia', 'germany', 'japan', 'china'], zh: ['国外', '海外', '国际', '美国', '欧洲', '日本', '加拿大', '英国', '澳洲'], ja: ['海外', '国際', 'アメリカ', '韓国', '中国', 'ヨーロッパ'] },
  customs: { en: ['customs', 'duty', 'duties', 'import', 'tariff'], zh: ['关税', '进口税', '海关'], ja: ['関税', '輸入税', '税関'] },
  label: { en: ['label', 'slip'], zh: ['面单', '运单', '退货单'], ja: ['ラベル', '伝票'] },
  wrong: { en: ['wrong', 'incorrect', 'different', 'mistake', 'mixup'], zh: ['错', '发错', '不对', '不一样'], ja: ['違', '間違'] },
  missing: { en: ['missing', 'incomplete', 'part', 'partial'], zh: ['少', '缺', '不全', '漏'], ja: ['足りない', '不足', '入っていな'] },
  lost: { en: ['lost', 'lose', 'stolen', 'never', 'disappeared'], zh: ['丢', '丢失', '没收到', '丢了'], ja: ['紛失', 'なくし', 'なくな', '届いていない'] },
  track: { en: ['track', 'tracking', 'status', 'trace', 'where'], zh: ['物流', '查询', '到哪', '状态', '单号'], ja: ['追跡', '状況', '配送状況', 'どこ'] },
  absent: { en: ['absent', 'redeliver', 'redelivery', 'home', 'notice'], zh: ['不在家', '没人', '再送', '重新派送'], ja: ['不在', '再配達', '留守', '不在票'] },
  locker: { en: ['locker', 'lockers', 'pickup', 'collect', 'collection'], zh: ['快递柜', '驿站', '自提', '自取', '代收点'], ja: ['宅配ボックス', 'ロッカー', 'コンビニ', '受け取', '受取'] },
  account: { en: ['account', 'profile', 'register', 'registration', 'signup', 'login', 'member'], zh: ['账号', '账户', '注册', '会员', '帐号'], ja: ['アカウント', '会員', '登録'] },
  password: { en: ['password', 'pasword', 'login', 'locked', 'sign', 'signin'], zh: ['密码', '登录', '登不上'], ja: ['パスワード', 'ログイン'] },
  delete: { en: ['delete', 'deletion', 'remove', 'erase', 'close', 'deactivate'], zh: ['注销', '删除', '销户'], ja: ['削除', '退会', '消'] },
  email: { en: ['email', 'e-mail', 'mail', 'phone'], zh: ['邮箱', '邮件', '手机号', '电话'], ja: ['メール', 'メールアドレス', '電話番号'] },
  privacy: { en: ['privacy', 'data', 'personal', 'information', 'gdpr', 'share', 'sell'], zh: ['隐私', '个人信息', '数据', '信息'], ja: ['個人情報', 'プライバシー', 'データ'] },
  newsletter: { en: ['newsletter', 'unsubscribe', 'marketing', 'promotional', 'spam', 'emails', 'advert', 'ads'], zh: ['退订', '广告', '订阅', '推送'], ja: ['メルマガ', 'メールマガジン', '配信停止', '宣伝', '広告'] },
  confirm: { en: ['confirmation', 'confirm', 'confirmed', 'through'], zh: ['确认', '确认邮件'], ja: ['確認メール', '確認'] },
  app: { en: ['app', 'application', 'android', 'iphone', 'ios', 'mobile', 'smartphone'], zh: ['app', '应用', '手机', '客户端'], ja: ['アプリ', 'スマホ', 'iphone'] },
  store: { en: ['store', 'shop', 'physical', 'visit', 'person', 'showroom', 'located'], zh: ['实体店', '门店', '店', '店里', '线下'], ja: ['店舗', '実店舗', '店', 'お店', '店頭'] },
  human: { en: ['human', 'person', 'agent', 'operator', 'representative', 'staff', 'call', 'phone'], zh: ['人工', '真人', '客服', '电话'], ja: ['オペレーター', '担当者', '人', '電話'] },
  complaint: { en: ['complaint', 'complain', 'unhappy', 'terrible', 'awful', 'angry', 'disappointed', 'bad'], zh: ['投诉', '不满', '差', '差劲', '太差'], ja: ['苦情', 'クレーム', '不満', 'ひどい'] },
  job: { en: ['job', 'jobs', 'career', 'careers', 'hiring', 'hire', 'vacancy', 'vacancies', 'cv', 'resume'], zh: ['招聘', '工作', '求职', '简历', '招人'], ja: ['求人', '採用', '応募', '仕事'] },
  partner: { en: ['partner', 'partnership', 'supplier', 'affiliate', 'vendor', 'manufacturer', 'collaborate', 'cooperation'], zh: ['合作', '供应商', '供货', '合作伙伴', '工厂'], ja: ['取引', '提携', '仕入', 'メーカー', 'アフィリエイト'] },
  eco: { en: ['recyclable', 'recycle', 'recycled', 'plastic', 'eco', 'sustainable', 'sustainability', 'environment'], zh: ['环保', '回收', '塑料'], ja: ['リサイクル', 'エコ', 'プラスチック', '環境'] },
  hours: { en: ['hours', 'open', 'opening', 'close', 'closing', 'weekend', 'weekends', 'sunday', 'saturday', 'holiday', 'holidays'], zh: ['营业', '上班', '下班', '工作时间', '几点', '周末', '周日', '节假日'], ja: ['営業', '営業時間', '受付時間', '何時', '土日', '日曜', '祝日'] },
  order: { en: ['order', 'orders', 'purchase', 'purchased', 'bought', 'buy'], zh: ['订单', '下单', '买'], ja: ['注文', '購入', '買'] },
  price_drop: { en: ['drop', 'dropped', 'sale', 'cheaper', 'lower', 'reduced', 'difference'], zh: ['降价', '差价', '便宜', '打折'], ja: ['値下', 'セール', '安', '差額'] },
  contact: { en: ['contact', 'reach', 'email', 'hotline', 'telephone', 'chat'], zh: ['联系', '联络', '热线', '客服电话'], ja: ['連絡', '問い合わせ', 'お問い合わせ', '連絡先'] },
  assembly: { en: ['assemble', 'assembly', 'install', 'installation', 'setup', 'manual', 'instructions'], zh: ['安装', '组装', '说明书', '使用说明'], ja: ['組み立て', '組立', '設置', '取扱説明書', '説明書', 'マニュアル'] },
  spare: { en: ['spare', 'parts', 'accessory', 'accessories', 'battery', 'batteries', 'charger', 'cable', 'adapter', 'plug', 'voltage'], zh: ['配件', '零件', '电池', '充电器', '插头', '电压'], ja: ['部品', 'パーツ', '付属品', '電池', 'バッテリー', '充電器', 'プラグ', '電圧'] },
  subscription: { en: ['subscription', 'subscribe', 'renew', 'renewal', 'plan', 'recurring'], zh: ['订阅', '续费', '自动续费', '会员费'], ja: ['定期', '定期購入', 'サブスク', '更新'] },
  engrave: { en: ['personalise', 'personalize', 'personalised', 'personalized', 'engrave', 'engraving', 'customise', 'customize', 'monogram'], zh: ['定制', '刻字', '个性化'], ja: ['名入れ', '刻印', 'カスタマイズ', 'オーダーメイド'] },
  review: { en: ['review', 'reviews', 'rating', 'feedback', 'rate'], zh: ['评价', '评论', '好评', '差评', '反馈'], ja: ['レビュー', '評価', '口コミ', '感想'] },
  schedule: { en: ['schedule', 'reschedule', 'slot', 'appointment', 'weekend', 'saturday', 'sunday', 'evening'], zh: ['预约', '改期', '时间段', '周末'], ja: ['日時指定', '時間指定', '指定', '週末'] },
  instructions: { en: ['door', 'doorstep', 'neighbour', 'neighbor', 'leave', 'signature', 'sign'], zh: ['放门口', '门口', '邻居', '签字', '签名'], ja: ['置き配', '玄関', '隣', 'サイン', '署名'] },
  expiry: { en: ['expiry', 'expiration', 'expire', 'expires', 'expired', 'valid', 'validity', 'shelf'], zh: ['过期', '有效期', '保质期'], ja: ['期限', '有効期限', '賞味期限', '消費期限'] },
  ingredients: { en: ['ingredient', 'ingredients', 'allergen', 'allergens', 'allergy', 'vegan', 'gluten', 'organic'], zh: ['成分', '过敏', '配料', '有机'], ja: ['成分', 'アレルギー', '原材料', 'オーガニック'] },
  tax: { en: ['tax', 'taxes', 'vat', 'gst', 'excluding', 'including', 'included'], zh: ['税', '含税', '税费', '增值税'], ja: ['税', '消費税', '税込', '税抜'] },
  price_error: { en: ['error', 'mistake', 'wrongly', 'overcharged', 'incorrect'], zh: ['多收', '标错', '价格错误'], ja: ['誤り', '間違い', '過請求'] },
  discount_general: { en: ['sale', 'sales', 'offer', 'offers', 'deal', 'deals', 'promotion', 'blackfriday', 'clearance'], zh: ['活动', '促销', '打折', '特价', '优惠活动'], ja: ['セール', 'キャンペーン', '特価', 'バーゲン'] },
  age: { en: ['age', 'adult', 'minor', 'underage', 'kids', 'children'], zh: ['年龄', '未成年', '儿童'], ja: ['年齢', '未成年', '子供'] },
};

/** English phrases rewritten before tokenizing, so their words do not stand alone ("money back"). */
export const ENGLISH_PHRASES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bmoney back\b/g, 'moneyback'],
  [/\bsend (it |them |this |something )?back\b/g, 'sendback'],
  [/\bsign(ing)? ?up\b/g, 'signup'],
  [/\blog ?in\b/g, 'login'],
  [/\bsold ?out\b/g, 'soldout'],
  [/\bnext[- ]day\b/g, 'nextday'],
  [/\bpre[- ]?order(s|ed|ing)?\b/g, 'preorder'],
  [/\bpick ?up\b/g, 'pickup'],
  [/\bgift ?card(s)?\b/g, 'giftcard'],
  [/\bapple ?pay\b/g, 'applepay'],
  [/\bamerican express\b/g, 'amex'],
  [/\bmix[- ]?up\b/g, 'mixup'],
  [/\bblack friday\b/g, 'blackfriday'],
  [/\bshow(ed|s)? up\b/g, 'arrived'],
  [/\bget here\b/g, 'arrive'],
  [/\bcash back\b/g, 'moneyback'],
  [/\bpayment plans?\b/g, 'instalments'],
];

/** Chinese and Japanese words the tokenizer does not yield as one term: found by substring instead. */
const ONE_RUN = /^(\p{Script=Han}{1,2}|[\p{Script=Katakana}\u30FC]+|[a-z]+)$/u;

const CONCEPTS = new Map<string, string[]>();
const PHRASES = new Map<string, string[]>();
const note = (map: Map<string, string[]>, key: string, concept: string): void => {
  const list = map.get(key);
  if (!list) map.set(key, [concept]);
  else if (!list.includes(concept)) list.push(concept);
};
for (const [name, words] of Object.entries(GROUPS)) {
  const concept = `~${name}`;
  for (const word of words.en ?? []) note(CONCEPTS, englishStem(word.toLowerCase()), concept);
  for (const word of [...(words.zh ?? []), ...(words.ja ?? [])].map((w) => w.toLowerCase())) {
    note(CONCEPTS, word, concept);
    if (!ONE_RUN.test(word)) note(PHRASES, word, concept);
  }
}

/** English concept words by each one-letter deletion, to forgive one typo ("refnud", "cancle", "adress"). */
const BY_DELETION = new Map<string, string[]>();
const LATIN_WORD = /^[a-z]{5,}$/;
const LATIN_CONCEPT_WORD = /^[a-z]{4,}$/;
const deletions = (word: string): string[] => Array.from({ length: word.length }, (_, i) => word.slice(0, i) + word.slice(i + 1));
for (const word of CONCEPTS.keys()) {
  if (!LATIN_CONCEPT_WORD.test(word)) continue;
  for (const key of [word, ...deletions(word)]) note(BY_DELETION, key, word);
}

/** The concept terms of a search term ("refund" → ["~refund"], 退钱 → ["~refund"]); [] for most terms. */
export function conceptsOf(term: string): readonly string[] {
  return CONCEPTS.get(term) ?? [];
}

/** The concepts of the English concept words one typo away from `term` (which is not one itself). */
export function conceptsNear(term: string): readonly string[] {
  if (!LATIN_WORD.test(term) || CONCEPTS.has(term)) return [];
  const found = new Set<string>();
  for (const key of [term, ...deletions(term)]) {
    for (const word of BY_DELETION.get(key) ?? []) if (withinOneEdit(term, word)) for (const concept of conceptsOf(word)) found.add(concept);
  }
  return [...found];
}

/** Chinese and Japanese phrases with their concepts, to look for in a message's normalised text. */
export const CJK_PHRASES: ReadonlyArray<readonly [string, readonly string[]]> = [...PHRASES];
