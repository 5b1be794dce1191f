import type { SynonymGroup } from './shop-synonym-groups.js';

/** Products and the shop itself: stock, sizes, materials, prices, subscriptions, stores, contact, jobs. (shop-synonym-groups.ts says how groups work). */
export const PRODUCT_SHOP_GROUPS: Readonly<Record<string, SynonymGroup>> = {
  stock: {
    en: ['stock', 'restock', 'available', 'availability', 'soldout', 'sold', 'unavailable', 'restocked', 'inventory',
      'backorder', 'backordered', 'waitlist'],
    zh: ['缺货', '补货', '有货', '库存', '卖完', '没货', '断货', '卖光', '售罄', '还有货', '有没有货', '没有货', '到货通知', '现货', '断码', '下架', '停产'],
    ja: ['在庫', '入荷', '再入荷', '品切れ', '売り切れ', 'ざいこ', '欠品', '在庫切れ', '在庫なし', '完売', '再販', '入荷予定', 'うりきれ', '取り寄せ', '廃盤',
      '販売終了', 'にゅうか'],
  },
  preorder: {
    en: ['preorder', 'reserve', 'reservation', 'release', 'released', 'preorders', 'upcoming', 'launch', 'presale'],
    zh: ['预订', '预定', '预售', '预约', '定金', '尾款', '预购', '首发', '发售'],
    ja: ['予約', '発売', '予約販売', '先行予約', '発売日', '予約注文', 'よやく', '受注生産'],
  },
  size: {
    en: ['size', 'sizes', 'sizing', 'fit', 'fits', 'small', 'large', 'medium', 'measurements', 'bigger', 'smaller',
      'larger', 'tight', 'loose', 'chart', 'measure'],
    zh: ['尺码', '大小', '尺寸', '码数', '几码', '偏大', '偏小', '合身', '尺码表', '穿多大', '多大码', '选码', '大码', '小码', '身高', '体重', '腰围'],
    ja: ['サイズ', 'サイズ感', '寸法', '大きさ', 'おおきさ', 'サイズ表', 'サイズガイド', '身長', '体重', 'きつい', 'ゆるい', '大きめ', '小さめ', 'ぶかぶか', 'さいず'],
  },
  wash: {
    en: ['wash', 'washing', 'clean', 'cleaning', 'dryer', 'laundry'],
    zh: ['洗', '清洗', '保养', '机洗', '洗衣机'],
    ja: ['洗濯', '洗', 'お手入れ', '手入れ', 'クリーニング'],
  },
  material: {
    en: ['material', 'materials', 'fabric', 'dimensions', 'specification', 'specifications', 'specs', 'measurements',
      'cotton', 'wool', 'polyester', 'linen', 'silk', 'steel', 'composition'],
    zh: ['材质', '材料', '面料', '规格', '参数', '纯棉', '真皮', '皮质', '什么做的'],
    ja: ['素材', '材質', '仕様', 'スペック', '生地', 'コットン', 'レザー', 'ウール', 'ポリエステル', '何でできて'],
  },
  genuine: {
    en: ['genuine', 'authentic', 'original', 'real', 'fake', 'counterfeit', 'replica'],
    zh: ['正品', '假货', '假的', '正版'],
    ja: ['本物', '偽物', '正規品', 'ニセモノ'],
  },
  secondhand: {
    en: ['secondhand', 'refurbished', 'refurb', 'outlet'],
    zh: ['二手', '翻新', '官翻'],
    ja: ['中古', '整備済', 'アウトレット', '訳あり'],
  },
  compatible: {
    en: ['compatible', 'compatibility', 'connect', 'connects', 'pair'],
    zh: ['兼容', '适配', '连接', '能连'],
    ja: ['互換', '接続', 'つなげ', '繋げ', 'つなが', '繋が', '対応機種'],
  },
  assembly: {
    en: ['assemble', 'assembly', 'install', 'installation', 'setup', 'manual', 'instructions'],
    zh: ['安装', '组装', '说明书', '使用说明', '装好', '上门安装'],
    ja: ['組み立て', '組立', '設置', '取扱説明書', '説明書', 'マニュアル', '取り付け', '取付', '据え付'],
  },
  spare: {
    en: ['spare', 'parts', 'accessory', 'accessories', 'battery', 'batteries', 'charger', 'cable', 'adapter', 'plug',
      'voltage', 'lid', 'lids', 'filter', 'filters', 'attachment', 'attachments'],
    zh: ['配件', '零件', '电池', '充电器', '插头', '电压', '盖子', '滤网'],
    ja: ['部品', 'パーツ', '付属品', '電池', 'バッテリー', '充電器', 'プラグ', '電圧', '交換部品', 'フタ', 'フィルター'],
  },
  engrave: {
    en: ['personalise', 'personalize', 'personalised', 'personalized', 'engrave', 'engraving', 'monogram'],
    zh: ['定制', '刻字', '个性化'],
    ja: ['名入れ', '刻印', 'カスタマイズ', 'オーダーメイド'],
  },
  review: {
    en: ['review', 'reviews', 'feedback'],
    zh: ['评价', '评论', '好评', '差评', '反馈'],
    ja: ['レビュー', '評価', '口コミ', '感想'],
  },
  expiry: {
    en: ['expiry', 'expiration', 'expire', 'expires', 'expired', 'valid', 'validity', 'shelf'],
    zh: ['过期', '有效期', '保质期'],
    ja: ['期限', '有効期限', '賞味期限', '消費期限'],
  },
  ingredients: {
    en: ['ingredient', 'ingredients', 'allergen', 'allergens', 'allergy', 'vegan', 'gluten', 'organic'],
    zh: ['成分', '过敏', '配料', '有机'],
    ja: ['成分', 'アレルギー', '原材料', 'オーガニック'],
  },
  age: {
    en: ['age', 'adult', 'minor', 'underage', 'kids', 'children'],
    zh: ['年龄', '未成年', '儿童'],
    ja: ['年齢', '未成年', '子供'],
  },
  subscription: {
    en: ['subscription', 'subscribe', 'renew', 'renewal', 'plan', 'recurring', 'subscriptions', 'skip', 'pause',
      'paused', 'autoship'],
    zh: ['订阅', '续费', '自动续费', '会员费', '暂停', '跳过', '续订', '包月', '停止续费', '取消自动续费'],
    ja: ['定期', '定期購入', 'サブスク', '更新', '定期便', '定期コース', 'スキップ', '一時停止', '休止', '解約'],
  },
  price_drop: {
    en: ['drop', 'dropped', 'sale', 'cheaper', 'lower', 'reduced', 'difference', 'pricedrop'],
    zh: ['降价', '差价', '便宜', '打折', '便宜了', '降了', '价格保护', '保价', '降价了', '买贵了', '价保', '退差价', '补差价'],
    ja: ['値下', 'セール', '差額', '値下げ', '値下がり', '安くなっ', '値下がりした', '安くなった', '高く買', '差額返金'],
  },
  price_match: {
    en: ['pricematch', 'competitor', 'competitors', 'elsewhere'],
    zh: ['比价', '别家', '别的店', '其他店', '别的平台', '其他平台', '更便宜'],
    ja: ['他店', '価格保証', '最低価格', '他社', '他のお店', '他のサイト', '他サイト', 'アマゾン', '楽天', 'より安い'],
  },
  discount_general: {
    en: ['sale', 'sales', 'deal', 'deals', 'promotion', 'blackfriday', 'clearance'],
    zh: ['活动', '促销', '打折', '特价', '优惠活动'],
    ja: ['セール', 'キャンペーン', '特価', 'バーゲン'],
  },
  student: {
    en: ['student', 'students', 'teacher', 'teachers', 'university', 'educator'],
    zh: ['学生', '学生证', '教师', '老师'],
    ja: ['学生', '学割', '教職員'],
  },
  bulk: {
    en: ['bulk', 'wholesale', 'quantity', 'volume', 'corporate', 'units', 'pieces', 'b2b', 'business', 'company',
      'quote', 'quotation', 'reseller', 'resell', 'distributor', 'moq'],
    zh: ['批发', '批量', '大量', '采购', '团购', '企业', '对公', '大批量', '报价', '起订量', '起批', '拿货', '代理', '经销', '分销'],
    ja: ['卸', '大量', 'まとめ買い', '法人', '会社で', '企業', '見積', 'お見積', '卸売', '大口', '業務用', 'まとめて買'],
  },
  store: {
    en: ['store', 'shop', 'physical', 'visit', 'showroom', 'located', 'instore', 'branch', 'stores', 'shops'],
    zh: ['实体店', '门店', '店', '店里', '线下', '线下店', '店铺', '店面', '专卖店', '体验店', '线下门店', '门店地址', '商场', '专柜'],
    ja: ['店舗', '実店舗', '店', 'お店', '店頭', 'おみせ', 'ショールーム', '直営店', '取扱店', '販売店', '取り扱い店', '売り場'],
  },
  app: {
    en: ['app', 'application', 'android', 'iphone', 'ios', 'mobile', 'smartphone', 'appstore', 'playstore'],
    zh: ['app', '应用', '客户端', '小程序', '安卓', '苹果手机'],
    ja: ['アプリ', 'iphone', 'あぷり', 'スマホ', 'アンドロイド'],
  },
  human: {
    en: ['human', 'agent', 'operator', 'representative', 'staff', 'call', 'phone'],
    zh: ['人工', '真人', '客服', '电话', '人工客服', '转人工', '人工服务', '真人客服', '活人', '找人工', '转接'],
    ja: ['オペレーター', '担当者', '電話', '人間', 'スタッフ', '有人', '人と話', '担当の方', '直接話', '電話で話', 'オペレータ', 'でんわ'],
  },
  contact: {
    en: ['contact', 'reach', 'email', 'hotline', 'telephone', 'chat', 'customerservice', 'contacting', 'reachable',
      'whatsapp', 'livechat', 'callback'],
    zh: ['联系', '联络', '热线', '客服电话', '客服', '联系方式', '怎么联系', '联系你们', '找客服', '在线客服', '打电话'],
    ja: ['連絡', '問い合わせ', 'お問い合わせ', '連絡先', '問合せ', 'れんらく', '問合わせ', 'お問合せ', '問い合せ', 'といあわせ', '窓口', 'サポート', 'カスタマーサポート',
      'カスタマーセンター', 'コールセンター'],
  },
  hours: {
    en: ['hours', 'weekend', 'weekends', 'sunday', 'saturday', 'holiday', 'holidays'],
    zh: ['营业', '上班', '下班', '工作时间', '几点', '周末', '周日', '节假日', '营业时间', '几点开门', '几点关门', '开门', '关门', '几点下班', '上班时间',
      '客服时间', '几点到几点', '春节', '过年'],
    ja: ['営業', '営業時間', '受付時間', '何時', '土日', '日曜', '祝日', '何時まで', '何時から', '営業日', '定休日', '休業', '年末年始', 'お盆', 'ゴールデンウィーク',
      '土日祝', 'なんじ'],
  },
  job: {
    en: ['job', 'jobs', 'career', 'careers', 'hiring', 'hire', 'vacancy', 'vacancies', 'cv', 'resume'],
    zh: ['招聘', '求职', '简历', '招人'],
    ja: ['求人', '採用', '応募', '仕事'],
  },
  partner: {
    en: ['partner', 'partnership', 'supplier', 'affiliate', 'vendor', 'manufacturer', 'collaborate', 'cooperation'],
    zh: ['合作', '供应商', '供货', '合作伙伴', '工厂'],
    ja: ['取引', '提携', '仕入', 'メーカー', 'アフィリエイト'],
  },
  eco: {
    en: ['recyclable', 'recycle', 'recycled', 'plastic', 'eco', 'sustainable', 'sustainability', 'environment',
      'dispose', 'disposal', 'old'],
    zh: ['环保', '回收', '塑料', '以旧换新', '旧机', '拉走', '旧家电'],
    ja: ['リサイクル', 'エコ', 'プラスチック', '環境', '処分', '引き取', '下取り', '回収'],
  },
};
