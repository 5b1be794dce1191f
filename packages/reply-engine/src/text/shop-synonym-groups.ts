import { AFTER_SALES_GROUPS } from './shop-groups-after-sales.js';
import { DELIVERY_GROUPS } from './shop-groups-delivery.js';
import { PAYMENT_ACCOUNT_GROUPS } from './shop-groups-payment-account.js';
import { PRODUCT_SHOP_GROUPS } from './shop-groups-products.js';

/** The words of one synonym group, per language (see synonyms.ts for how each kind is matched). */
export interface SynonymGroup {
  en?: readonly string[];
  zh?: readonly string[];
  ja?: readonly string[];
}

/**
 * Words that mean the same in online-shop customer service, across English, Chinese and Japanese.
 * A message and a FAQ phrasing rarely share their words ("money back" / "refund" / 退钱 / 返金); each
 * word of a group also yields the group's concept term (`~refund`), which the index weighs like any
 * other term (a concept found in many entries counts little). English words are stemmed, Chinese
 * words match jieba words or character bigrams, Japanese words match kanji runs, their bigrams or
 * katakana words. A FAQ of another trade still works without these; it only misses the bridges.
 * The groups are kept by area, one file each (shop-groups-*.ts); a group's name is its concept.
 */
export const SHOP_SYNONYM_GROUPS: Readonly<Record<string, SynonymGroup>> = Object.freeze({
  ...DELIVERY_GROUPS,
  ...AFTER_SALES_GROUPS,
  ...PAYMENT_ACCOUNT_GROUPS,
  ...PRODUCT_SHOP_GROUPS,
});
