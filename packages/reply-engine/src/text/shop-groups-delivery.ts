import type { SynonymGroup } from './shop-synonym-groups.js';

/** Orders and their delivery: status, time, cost, address, carriers, missed and late deliveries. (shop-synonym-groups.ts says how groups work). */
export const DELIVERY_GROUPS: Readonly<Record<string, SynonymGroup>> = {
  order: {
    en: ['order', 'orders', 'purchase', 'purchased', 'bought', 'buy', 'ordering'],
    zh: ['订单', '下单', '买', '订购', '拍下', '拍了', '网购', '下的单'],
    ja: ['注文', '購入', '買', 'ちゅうもん', 'オーダー', 'こうにゅう'],
  },
  deliver: {
    en: ['deliver', 'delivery', 'delivered', 'ship', 'shipping', 'shipped', 'shipment', 'dispatch', 'dispatched',
      'arrive', 'arrival', 'courier', 'postage', 'post', 'mail', 'arrived', 'ships', 'transit', 'sent', 'carrier',
      'dhl', 'fedex', 'usps', 'dpd', 'evri'],
    zh: ['发货', '配送', '送货', '到货', '快递', '物流', '寄', '送到', '派送', '邮寄', '寄过来', '送过来', '发出', '寄出', '收到', '到了', '送来', '送达',
      '寄到', '配送到', '快递员', '快递小哥', '派件', '中通', '圆通', '申通', '韵达', '邮政'],
    ja: ['配送', '発送', '配達', '届', '到着', '出荷', '送', 'とどく', 'とどい', 'お届け', '着く', '着き', '着いた', 'はいそう', 'とどか', 'とどき', 'とどけ',
      '宅配', '宅急便', 'ヤマト', '佐川', '日本郵便', 'ゆうパック', '郵送', '配達員', 'はいたつ', 'はっそう'],
  },
  parcel: {
    en: ['parcel', 'package', 'packet', 'box'],
    zh: ['包裹', '快递', '箱子', '盒子', '快件', '件包裹', '快递包裹'],
    ja: ['荷物', '小包', '箱', 'にもつ', 'パッケージ', '段ボール', 'ダンボール', '宅配便', '郵便物'],
  },
  cost: {
    en: ['cost', 'costs', 'fee', 'fees', 'charge', 'charges', 'price', 'pricing', 'expensive', 'cheap', 'howmuch',
      'postage', 'pricey'],
    zh: ['费用', '多少钱', '价格', '价钱', '收费', '费', '运费', '邮费', '贵', '要钱', '花钱', '几块钱', '收钱', '快递费', '配送费', '多少运费', '运费多少',
      '手续费', '服务费', '收不收', '要不要钱', '另收', '额外收费', '加钱', '多钱', '几块'],
    ja: ['料金', '費用', '値段', '価格', 'いくら', '送料', '代金', '手数料', '配送料', '有料', '追加料金', '別途', 'そうりょう', 'おいくら'],
  },
  free: {
    en: ['free', 'complimentary', 'threshold'],
    zh: ['免费', '包邮', '免邮', '免运费', '不要钱', '免运', '包不包邮', '满多少包邮'],
    ja: ['無料', 'タダ', '送料無料', '無償', 'むりょう', '送料込み', '送料込'],
  },
  fast: {
    en: ['express', 'fast', 'faster', 'quick', 'quicker', 'urgent', 'urgently', 'nextday', 'overnight', 'rush',
      'asap', 'sameday', 'expedited', 'priority', 'expedite', 'fastest', 'quickest', 'speedy', 'hurry'],
    zh: ['加急', '快点', '急', '次日达', '急用', '顺丰', '快一点', '尽快', '特快', '当日达', '特急', '急件', '早点到', '尽早', '最快', '加快'],
    ja: ['速達', '急ぎ', 'お急ぎ', '翌日', 'いそぎ', '早く', 'はやく', '至急', '急いで', '即日', '特急', '最短', '早めに', '早急'],
  },
  time: {
    en: ['long', 'days', 'soon', 'eta', 'howlong', 'timeframe', 'turnaround', 'estimated'],
    zh: ['多久', '几天', '什么时候', '多长时间', '啥时候', '多少天', '几号', '要多久', '啥时', '几时', '哪天', '时效', '预计', '多久到', '多久能到', '几天能到',
      '要几天', '多会儿', '啥时到', '几时到'],
    ja: ['いつ', 'どのくらい', 'どれくらい', '何日', 'いつごろ', 'いつ頃', '日数', 'どのぐらい', 'どれぐらい', '予定日', '到着予定', 'お届け予定', '届く予定', '何日後',
      '何営業日', 'いつ届', 'いつまでに', '所要日数'],
  },
  cancel: {
    en: ['cancel', 'cancellation', 'cancelled', 'canceled', 'revoke', 'withdraw', 'void', 'cancelling', 'canceling',
      'cancellations'],
    zh: ['取消', '撤销', '不要了', '不想要', '退单', '作废', '不买了', '撤单', '取消订单', '不想买了', '撤回', '拦截', '别发了', '不用发了', '别发货', '取消掉',
      '咋取消'],
    ja: ['キャンセル', '取り消', '取消', 'きゃんせる', '取りやめ', '取り止め', 'とりけし', 'やめたい', 'やっぱりいらない', 'いらなくなった', '注文取消', 'とりやめ', '解約',
      'キャンセル料'],
  },
  change: {
    en: ['change', 'modify', 'edit', 'update', 'alter', 'amend', 'correct', 'adjust', 'amendment'],
    zh: ['修改', '更改', '改', '变更', '改一下', '改成', '调整', '改下', '改个', '要改', '想改', '修改一下', '改地址', '改订单'],
    ja: ['変更', '変え', '修正', 'へんこう', '変えたい', 'かえたい', '変えら', '訂正', '書き換', '変更でき'],
  },
  address: {
    en: ['address', 'adress', 'location', 'postcode', 'zipcode', 'addresses', 'street', 'apartment'],
    zh: ['地址', '收货地址', '收件地址', '收货人', '新地址', '搬家', '收件人', '收货信息', '门牌号'],
    ja: ['住所', '届け先', '配送先', 'じゅうしょ', 'お届け先', '送り先', '引っ越', '引越', 'ご住所', '宛先', 'あて先', '引越し'],
  },
  abroad: {
    en: ['international', 'internationally', 'abroad', 'overseas', 'country', 'countries', 'worldwide', 'europe',
      'usa', 'uk', 'canada', 'australia', 'germany', 'japan', 'china', 'foreign', 'global', 'globally', 'france',
      'singapore', 'mexico', 'india', 'ireland', 'netherlands', 'switzerland', 'norway', 'zealand', 'korea', 'taiwan'],
    zh: ['国外', '海外', '国际', '美国', '欧洲', '日本', '加拿大', '英国', '澳洲', '境外', '香港', '台湾', '新加坡', '韩国', '全球', '外国', '港澳台'],
    ja: ['海外', '国際', 'アメリカ', '韓国', '中国', 'ヨーロッパ', '国外', '外国', '台湾', '香港', 'カナダ', 'イギリス', 'オーストラリア', 'ドイツ', 'フランス',
      'シンガポール', '日本国外', '海外発送'],
  },
  customs: {
    en: ['customs', 'duty', 'duties', 'import', 'tariff'],
    zh: ['关税', '进口税', '海关'],
    ja: ['関税', '輸入税', '税関'],
  },
  track: {
    en: ['track', 'tracking', 'status', 'trace', 'transit', 'whereabouts', 'locate'],
    zh: ['物流', '查询', '到哪', '状态', '单号', '快递单号', '到哪了', '到哪儿', '查物流', '跟踪', '追踪', '物流信息', '进度', '查件', '查快递', '物流进度',
      '订单状态', '运单号', '物流单号', '到哪里了', '咋查', '在路上'],
    ja: ['追跡', '状況', '配送状況', 'どこ', 'ついせき', '追跡番号', 'いまどこ', '今どこ', 'ステータス', '進捗', '発送状況', '注文状況', '問い合わせ番号',
      'お問い合わせ番号', '伝票番号', 'どうなって', 'トラッキング'],
  },
  absent: {
    en: ['absent', 'redeliver', 'redelivery', 'missed', 'reattempt', 'rearrange'],
    zh: ['不在家', '没人', '再送', '重新派送', '没在家', '家里没人', '二次派送', '错过', '没接到电话', '没接电话', '没人签收', '没人收', '再派送', '重新配送',
      '再送一次', '改天送', '二次配送'],
    ja: ['不在', '再配達', '留守', '不在票', 'さいはいたつ', '不在連絡票', 'ふざい', '不在通知', '再配', '受け取れな', '留守中', '持ち戻り'],
  },
  locker: {
    en: ['locker', 'lockers', 'pickup', 'collect', 'collection'],
    zh: ['快递柜', '驿站', '自提', '自取', '代收点', '门店自提', '到店取', '自己去拿', '自己拿', '上门自提'],
    ja: ['宅配ボックス', 'ロッカー', 'コンビニ', '受け取', '受取', '店舗受取', '店舗受け取', '店頭受取', '店頭受け取', '取りに行', 'とりにいく', 'コンビニ受取', '営業所止め',
      '局留め', '郵便局留め', '営業所受取'],
  },
  schedule: {
    en: ['schedule', 'reschedule', 'slot', 'appointment', 'weekend', 'saturday', 'sunday'],
    zh: ['预约', '改期', '时间段', '周末'],
    ja: ['日時指定', '時間指定', '指定', '週末'],
  },
  instructions: {
    en: ['door', 'doorstep', 'neighbour', 'neighbor', 'leave', 'signature', 'porch', 'neighbours', 'concierge',
      'reception', 'mailbox', 'letterbox'],
    zh: ['放门口', '门口', '邻居', '签字', '签名', '门卫', '前台', '放在门口', '放邻居', '隔壁', '物业', '代收', '放家门口'],
    ja: ['置き配', '玄関', '隣', 'サイン', '署名', '置き場所', '玄関前', 'お隣', '管理人', '指定場所', 'おきはい', '手渡し', '対面'],
  },
  delay: {
    en: ['late', 'delay', 'delayed', 'overdue', 'slow', 'delays', 'lateness'],
    zh: ['延迟', '迟迟', '还没到', '怎么还没', '太慢', '慢', '没到', '还没收到', '没送到', '一直没到', '还没发', '没发货', '还不发货', '延误', '等了好久',
      '等了很久', '这么久', '这么慢', '还没来'],
    ja: ['遅れ', '遅い', 'おそい', '遅延', 'まだ届か', 'まだ来な', 'まだ届い', 'まだとどか', 'まだとどい', 'まだこない', 'まだ来て', '届くのが遅', '遅すぎ', 'おそすぎ',
      '延着', '遅配', 'おくれて', 'おくれる'],
  },
  marked_delivered: {
    en: ['markeddelivered'],
    zh: ['显示签收', '显示已签收', '已签收', '显示送达', '显示已送达', '显示已收货', '已送达', '签收了', '被签收', '别人签收', '代签', '显示到了', '显示收到'],
    ja: ['配達済', '配達完了', '届いたことになって', '受取済', 'お届け済', '配達済み'],
  },
  bulky: {
    en: ['bulky', 'heavy', 'oversized', 'upstairs'],
    zh: ['大件', '搬运', '搬进', '送上楼', '上楼', '搬上'],
    ja: ['大型', '搬入', '運び入れ'],
  },
};
