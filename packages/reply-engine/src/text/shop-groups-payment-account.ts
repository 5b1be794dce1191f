import type { SynonymGroup } from './shop-synonym-groups.js';

/** Paying and the customer account: methods, failures, invoices, coupons, gift cards, points, sign-in, privacy. (shop-synonym-groups.ts says how groups work). */
export const PAYMENT_ACCOUNT_GROUPS: Readonly<Record<string, SynonymGroup>> = {
  pay: {
    en: ['pay', 'paying', 'payment', 'payments', 'paid', 'checkout', 'banktransfer', 'cashondelivery', 'cod',
      'payable', 'cash'],
    zh: ['付款', '支付', '付钱', '付', '结账', '买单', '交钱', '转账', '货到付款', '刷卡', '扫码', '付款方式', '支付方式', '怎么付', '云闪付'],
    ja: ['支払', '払', '決済', '会計', 'しはらい', '振込', '振り込', '代引', 'コンビニ払い', 'おしはらい', 'お支払', 'しはらう', '支払方法', '銀行振込', 'コンビニ決済',
      '代金引換', '電子マネー', 'キャリア決済', 'けっさい'],
  },
  card: {
    en: ['card', 'visa', 'mastercard', 'amex', 'credit', 'debit', 'jcb', 'maestro', 'unionpay'],
    zh: ['信用卡', '银行卡', '卡', '借记卡', '储蓄卡', '银联', '信用卡支付'],
    ja: ['カード', 'クレジットカード', 'クレカ', 'デビット', 'デビットカード', 'クレジット', 'クレジット決済'],
  },
  paypal: {
    en: ['paypal', 'alipay', 'wechat', 'applepay', 'googlepay', 'venmo', 'shoppay'],
    zh: ['支付宝', '微信', '花呗', '微信支付', '京东支付'],
    ja: ['ペイパル', 'paypay', 'ペイペイ', 'アップルペイ', '楽天ペイ', 'ラインペイ', 'applepay'],
  },
  instalment: {
    en: ['instalment', 'instalments', 'installment', 'installments', 'monthly', 'klarna', 'split', 'financing',
      'paylater', 'afterpay', 'clearpay', 'interestfree'],
    zh: ['分期', '先买后付', '花呗', '分期付款', '分几期', '免息', '白条', '先用后付', '月付'],
    ja: ['分割', '後払い', '分割払い', '分割払', 'ぶんかつ', 'リボ', 'リボ払い', '後払', 'あとばらい', 'ペイディ', 'paidy'],
  },
  fail: {
    en: ['fail', 'failed', 'failing', 'declined', 'decline', 'rejected', 'error', 'denied', 'unsuccessful', 'failure',
      'refused', 'bounced'],
    zh: ['失败', '不成功', '付不了', '报错', '错误', '被拒', '拒绝', '扣款失败', '付款失败', '支付不了', '无法支付', '付不上', '交易失败', '下不了单', '下单失败',
      '提交不了', '付款不成功'],
    ja: ['失敗', 'エラー', '拒否', '通らない', 'はじかれ', '弾かれ', '通らな', '決済できな', '決済エラー', '支払いできな', '支払えない', 'しはらえない', '払えない',
      'はらえない', '承認されな'],
  },
  twice: {
    en: ['twice', 'double', 'duplicate', 'duplicated'],
    zh: ['两次', '重复', '二次', '扣了两次', '扣两次', '多扣', '重复扣款', '扣了2次', '付了两次', '支付了两次', '重复付款', '重复支付', '多扣了', '扣两遍', '两笔',
      '扣了两笔'],
    ja: ['二重', '2回', '二回', '重複', '二重請求', '二重決済', '二重引き落とし', '2重', '二重払い', '二回引き落と'],
  },
  currency: {
    en: ['currency', 'dollar', 'dollars', 'usd', 'euro', 'euros', 'eur', 'pound', 'pounds', 'yen', 'rmb', 'yuan'],
    zh: ['货币', '币种', '美元', '人民币', '欧元', '日元'],
    ja: ['通貨', 'ドル', 'ユーロ', '日本円'],
  },
  safe: {
    en: ['safe', 'secure', 'security', 'encrypted', 'trust'],
    zh: ['安全', '泄露'],
    ja: ['安全', 'セキュリティ'],
  },
  invoice: {
    en: ['invoice', 'receipt', 'bill', 'vat', 'taxinvoice'],
    zh: ['发票', '收据', '开票', '小票', '开发票', '电子发票', '专票', '普票', '增值税发票', '报销', '抬头', '购物凭证', '凭证'],
    ja: ['領収書', '請求書', 'インボイス', '明細', 'りょうしゅうしょ', '納品書', 'レシート', '領収証', '明細書', '適格請求書'],
  },
  tax: {
    en: ['tax', 'taxes', 'vat', 'gst', 'taxed'],
    zh: ['税', '含税', '税费', '增值税', '税率', '税点', '不含税'],
    ja: ['税', '消費税', '税込', '税抜', '税込み', '税金', '内税', '外税'],
  },
  price_error: {
    en: ['error', 'mistake', 'wrongly', 'overcharged', 'incorrect'],
    zh: ['多收', '标错', '价格错误'],
    ja: ['誤り', '間違い', '過請求'],
  },
  coupon: {
    en: ['coupon', 'voucher', 'promo', 'discount', 'code', 'promotion', 'promocode', 'redeem', 'redemption'],
    zh: ['优惠券', '优惠码', '折扣码', '券', '优惠', '折扣', '兑换码', '优惠劵', '代金券', '红包', '券码', '满减', '优惠卷', '领券', '用券', '抵扣', '抵用券',
      '折扣券', '促销码'],
    ja: ['クーポン', '割引', 'プロモーション', 'コード', 'くーぽん', 'クーポンコード', '割引コード', '割引券', 'クーポン券', '割引クーポン', 'プロモコード', '値引き', '値引',
      'わりびき', 'ねびき'],
  },
  invalid: {
    en: ['invalid', 'work', 'working', 'accepted', 'apply', 'applied', 'expired', 'recognised', 'recognized'],
    zh: ['无效', '用不了', '不能用', '失效', '没反应', '不生效', '没减', '用不上', '不可用', '无法使用', '使用不了', '不能使用', '没抵扣', '没优惠', '没打折',
      '减不了', '提示无效'],
    ja: ['無効', '使えない', '適用されない', '適用', 'つかえない', '反映されない', '割引されない', '使用できな', '利用できな', 'つかえな', '適用でき', '反映されな'],
  },
  gift: {
    en: ['gift', 'present', 'giftcard'],
    zh: ['礼品', '礼物', '送人', '送朋友'],
    ja: ['ギフト', 'プレゼント', '贈り物'],
  },
  giftcard: {
    en: ['giftcard', 'egift'],
    zh: ['礼品卡', '购物卡', '储值卡', '礼卡', '电子礼品卡', '购物券', '卡券', '充值卡'],
    ja: ['ギフト券', 'ギフトカード', '商品券', 'ギフトコード', 'プリペイドカード', '金券'],
  },
  wrap: {
    en: ['wrap', 'wrapping', 'wrapped'],
    zh: ['包装'],
    ja: ['ラッピング', '包装', '梱包'],
  },
  balance: {
    en: ['balance', 'remaining', 'left'],
    zh: ['余额', '剩多少', '还剩', '剩余', '还剩多少', '查余额', '剩下多少'],
    ja: ['残高', '残り', '残額', 'ざんだか', '残金'],
  },
  points: {
    en: ['points', 'loyalty', 'reward', 'rewards', 'member', 'membership', 'earn', 'vip', 'cashback'],
    zh: ['积分', '会员', '返点', '会员积分', '攒积分', '积分兑换', '会员等级', '返利', '返现', '金币', '成长值'],
    ja: ['ポイント', '会員', 'ぽいんと', 'ポイント還元', '還元', 'マイル', '会員ランク', '貯まる', 'たまる', '貯め'],
  },
  account: {
    en: ['account', 'profile', 'register', 'registration', 'signup', 'login', 'member', 'accounts', 'username'],
    zh: ['账号', '账户', '注册', '会员', '帐号', '开户', '开个账号', '注册账号', '建账号', '创建账户', '用户名', '新用户'],
    ja: ['アカウント', '会員', '登録', '会員登録', '新規登録', '新規会員', 'アカウント作成', 'ユーザー登録', 'ユーザー名', 'かいいん', 'とうろく'],
  },
  guest: {
    en: ['guest', 'noaccount'],
    zh: ['游客', '免注册', '不注册', '不登录', '不用注册', '免登录', '没有账号', '没账号', '不想注册', '游客购买'],
    ja: ['ゲスト', '登録なし', '登録せず', '非会員', 'アカウント作らな', '会員登録なし', '会員登録せず', '登録しないで', '登録しなくても', '会員にならず', 'ゲスト購入',
      '会員登録しない'],
  },
  password: {
    en: ['password', 'pasword', 'login', 'locked', 'signin', 'passwords', 'forgot', 'forgotten', 'reset'],
    zh: ['密码', '登录', '登不上', '登不进', '忘记密码', '进不去', '忘了密码', '密码忘了', '重置密码', '找回密码', '改密码', '登陆', '登不了', '登录不了', '无法登录',
      '上不去', '被锁'],
    ja: ['パスワード', 'ログイン', 'ぱすわーど', 'ろぐいん', 'パスワード忘れ', 'パスワードを忘れ', 'ログイン出来な', '再設定', 'リセット', 'サインイン', 'ロック'],
  },
  delete: {
    en: ['delete', 'deletion', 'remove', 'erase', 'close', 'deactivate', 'closure'],
    zh: ['注销', '删除', '销户', '删除账号', '删号', '注销账号', '注销账户', '销号', '删除帐号'],
    ja: ['削除', '退会', 'アカウント削除', '消して', '消したい', '消去', 'たいかい', 'アカウント消'],
  },
  email: {
    en: ['email', 'e-mail', 'mail', 'phone'],
    zh: ['邮箱', '邮件', '手机号', '电话', '手机号码', '邮箱地址', '电子邮箱', '邮件地址'],
    ja: ['メール', 'メールアドレス', '電話番号', 'メアド', 'メルアド', 'アドレス', '携帯番号'],
  },
  privacy: {
    en: ['privacy', 'data', 'gdpr', 'personaldata', 'datasharing', 'cookies', 'cookie'],
    zh: ['隐私', '个人信息', '数据', '个人资料', '卖给', '第三者', '个人隐私', '信息泄露', '泄漏', '隐私政策', '用户信息'],
    ja: ['個人情報', 'プライバシー', 'データ', '第三者', '情報漏洩', '漏洩', '個人データ', 'クッキー'],
  },
  newsletter: {
    en: ['newsletter', 'unsubscribe', 'marketing', 'promotional', 'spam', 'emails', 'advert', 'ads', 'newsletters',
      'sms', 'notifications', 'notification'],
    zh: ['退订', '广告', '订阅', '推送', '营销短信', '骚扰', '取消订阅', '不要再发', '别再发', '垃圾邮件', '短信', '营销', '推广', '广告邮件'],
    ja: ['メルマガ', 'メールマガジン', '配信停止', '宣伝', '広告', 'メール停止', '配信解除', 'ダイレクトメール', 'メルマガ解除', '配信を止め', 'メール配信', '迷惑メール',
      '購読解除', '登録解除'],
  },
  confirm: {
    en: ['confirmation', 'confirm', 'confirmed', 'acknowledgement'],
    zh: ['确认', '确认邮件', '确认短信', '订单确认'],
    ja: ['確認メール', '確認', '注文確認', '注文確認メール', 'サンクスメール', '受付メール', '注文完了メール', '自動返信'],
  },
};
