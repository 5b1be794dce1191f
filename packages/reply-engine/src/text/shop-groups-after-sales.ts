import type { SynonymGroup } from './shop-synonym-groups.js';

/** After the parcel came: returns, refunds, exchanges, damaged, broken, missing or wrong items, warranty. (shop-synonym-groups.ts says how groups work). */
export const AFTER_SALES_GROUPS: Readonly<Record<string, SynonymGroup>> = {
  refund: {
    en: ['refund', 'reimburse', 'reimbursement', 'moneyback', 'money', 'refunded', 'reimbursed', 'refunds',
      'refunding'],
    zh: ['退款', '退钱', '退回来', '返还', '退费', '返款', '钱退', '退给我', '把钱退', '退我钱', '返钱', '还钱', '把钱还', '钱退回', '原路退回', '原路返回',
      '到账', '没到账', '退款进度', '钱没退', '钱能退', '退钱吗'],
    ja: ['返金', '払い戻し', '払戻', 'へんきん', 'お金が戻', 'お金戻', 'お金を返', 'お金返', '払い戻', 'はらいもどし', '入金されてな', 'お金が返'],
  },
  return: {
    en: ['return', 'returns', 'returning', 'sendback', 'dropoff', 'returnable', 'rma'],
    zh: ['退货', '退回', '寄回', '退', '退回去', '寄回去', '退掉', '退个', '无理由', '七天无理由', '无理由退货', '能退吗', '可以退吗', '怎么退', '咋退', '退不退',
      '退了'],
    ja: ['返品', '返送', '送り返', 'へんぴん', '返したい', '返せ', '送り返し', '返却', 'かえしたい', '返品したい'],
  },
  exchange: {
    en: ['exchange', 'swap', 'replace', 'replacement', 'swapped', 'exchanged', 'swapping', 'exchanging'],
    zh: ['换货', '更换', '换', '调换', '换一个', '换个', '换成', '换尺码', '换码', '换大一号', '换小一号', '换颜色', '换一件', '换新'],
    ja: ['交換', '取り替', '取替', 'こうかん', '替えて', '替えたい', '替えら', '取り換', '取換', 'サイズ交換', 'とりかえ', '取りかえ', 'かえてほしい', 'サイズ違い'],
  },
  label: {
    en: ['label', 'slip', 'waybill'],
    zh: ['面单', '运单', '退货单', '快递单', '退货标签', '标签', '退货地址'],
    ja: ['ラベル', '伝票', '送り状', '返送伝票'],
  },
  broken: {
    en: ['broken', 'break', 'broke', 'faulty', 'defect', 'defective', 'malfunction', 'died', 'dead', 'malfunctioning',
      'glitch', 'glitchy', 'dud', 'doa', 'overheating', 'overheat', 'unresponsive'],
    zh: ['坏', '坏了', '故障', '不响', '不能用', '坏掉', '不工作', '开不了机', '不亮', '不好使', '不转', '坏的', '质量问题', '次品', '残次', '失灵', '充不了电',
      '充不进电', '没声音', '黑屏', '死机', '坏掉了', '不能用了'],
    ja: ['故障', '壊', '動かない', '不具合', 'こわれ', '壊れ', 'うごかない', '動かなくな', '電源が入らない', 'つかない', '反応しない', '初期不良', '不良品', '不良',
      'こしょう', '動作しない', '作動しない', '起動しない', '充電できない', '音が出ない', '映らない', '点かない', 'つかなく', 'うごかなく', 'ふりょう'],
  },
  damaged: {
    en: ['damaged', 'damage', 'cracked', 'smashed', 'shattered', 'crushed', 'dented', 'scratched', 'dent', 'crack',
      'torn', 'ripped', 'scratch', 'scratches', 'leaking', 'chipped', 'bent', 'stained', 'leaked', 'leak', 'spilled',
      'dents', 'cracks'],
    zh: ['破损', '碎了', '压坏', '摔坏', '碎', '裂了', '压扁', '划痕', '磕碰', '变形', '摔碎', '破了', '烂了', '漏了', '漏液', '凹陷', '划伤', '掉漆',
      '摔了', '压碎', '裂痕', '裂缝', '瑕疵', '污渍', '脏了', '破洞', '漏水'],
    ja: ['破損', '傷', 'つぶれ', '割れ', 'われて', 'ひび', 'へこみ', '凹み', 'キズ', '潰れ', '破れ', 'やぶれ', '汚れ', 'よごれ', 'シミ', '染み', '漏れ',
      'へこんで', '欠け', 'ヒビ', '凹ん', '曲が'],
  },
  wrong: {
    en: ['wrong', 'incorrect', 'different', 'mistake', 'mixup', 'mismatch', 'incorrectly'],
    zh: ['错', '发错', '不对', '不一样', '寄错', '错了', '搞错', '弄错', '发错了', '拿错', '错发', '颜色不对', '型号不对', '不是我买的', '不是我要的', '不是我订的',
      '货不对板', '不符'],
    ja: ['違', '間違', 'ちがう', 'まちがい', 'まちがえ', '別の', '別の商品', '間違って', '誤配', '誤送', '頼んだものと', 'ちがい', 'まちがって'],
  },
  missing: {
    en: ['missing', 'incomplete', 'partial', 'missed'],
    zh: ['不全', '少了', '少发', '漏发', '缺件', '缺少', '少件', '只收到', '不齐', '少寄', '缺了', '少一个', '少一件', '少了一', '少东西', '缺东西', '漏寄',
      '没发全', '少给', '配件没有'],
    ja: ['足りない', '不足', '入っていな', 'そろっていな', '揃っていな', 'しか入って', 'しか届', '入ってない', 'はいってない', 'はいっていな', '足りな', 'たりない', '抜け',
      '同梱されていな', '同梱されてな', '一部しか'],
  },
  lost: {
    en: ['lost', 'lose', 'stolen', 'never', 'disappeared', 'vanished', 'misplaced', 'theft'],
    zh: ['丢', '丢失', '没收到', '丢了', '丢件', '被偷', '收不到', '不见了', '寄丢', '弄丢', '被拿走', '被人拿走'],
    ja: ['紛失', 'なくし', 'なくな', '届いていない', '盗まれ', '届いてない', 'とどいていない', 'とどいてない', '行方不明', 'ぬすまれ'],
  },
  warranty: {
    en: ['warranty', 'guarantee', 'guaranteed', 'warrantee', 'guarantees'],
    zh: ['保修', '保固', '质保', '包修', '保修期', '保修卡', '三包', '在保', '过保', '保内', '质保期'],
    ja: ['保証', '保証期間', 'メーカー保証', 'ほしょう', '保証書', '保証内', '保証外'],
  },
  extended_warranty: {
    en: ['extended', 'insurance', 'protection'],
    zh: ['延保', '延长保修', '保险'],
    ja: ['延長保証', '保険', '延長'],
  },
  repair: {
    en: ['repair', 'repairs', 'fix', 'fixed', 'repaired', 'repairing', 'fixing', 'mend'],
    zh: ['维修', '修理', '修一下', '能修', '修好', '返修', '修吗', '修好吗', '拿去修', '送修'],
    ja: ['修理', 'しゅうり', '直して', '直せ', '直る', '直り', '修繕', 'なおして', 'なおせ', 'なおる', '修理代', 'メンテナンス', '無償修理'],
  },
  complaint: {
    en: ['complaint', 'complain', 'unhappy', 'terrible', 'awful', 'angry', 'disappointed', 'bad', 'complaints',
      'dissatisfied', 'disappointing', 'unacceptable', 'ridiculous', 'horrible', 'worst', 'rude', 'escalate', 'scam',
      'furious', 'frustrated'],
    zh: ['投诉', '不满', '差劲', '太差', '太差了', '服务差', '态度差', '态度不好', '不满意', '失望', '骗子', '坑人', '气死', '举报', '维权'],
    ja: ['苦情', 'クレーム', '不満', 'ひどい', '最悪', 'さいあく', '対応が悪', '態度が悪', '失望', 'がっかり', '納得できない', '納得いかない', '許せない', '詐欺'],
  },
};
