/**
 * Terms that carry no topic, per language, dropped for indexing and querying alike. Without them
 * "what is" or "can you" would match every entry, and "thanks!" would count as a question (and pull
 * an earlier question back from the history). Words that only some entries share ("up", "as",
 * "pay") are not listed here: the weighting (inverse entry frequency) keeps them from deciding.
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'is', 'are', 'am', 'was', 'were', 'be', 'been', 'being', 'do', 'does', 'did', 'done',
  'i', 'me', 'my', 'mine', 'myself', 'you', 'your', 'yours', 'u', 'ur', 'we', 'us', 'our', 'it', 'its', "it's",
  'he', 'she', 'they', 'them', 'their', 'his', 'her', 'this', 'that', 'these', 'those', 'there', 'here',
  'to', 'of', 'in', 'on', 'at', 'by', 'for', 'with', 'from', 'about', 'into', 'as', 'up', 'so', 'if', 'than', 'then',
  'and', 'or', 'but', 'not', 'no', 'yes', 'any', 'some', 'all', 'just', 'also', 'too', 'very', 'really', 'still', 'yet',
  'have', 'has', 'had', 'get', 'got', 'getting', 'go', 'going', 'want', 'wanted', 'like', 'would', 'need', 'needs',
  'what', 'whats', "what's", 'which', 'who', 'how', 'why', 'when', 'where', 'whether',
  'can', 'could', 'will', 'shall', 'should', 'may', 'might', 'must', 'cant', "can't", 'dont', "don't", 'im', "i'm", "i'd", "i've",
  'hi', 'hello', 'hey', 'dear', 'please', 'pls', 'plz', 'thanks', 'thank', 'thx', 'ok', 'okay', 'sorry', 'guys', 'team',
  'know', 'tell', 'let', 'help', 'question', 'possible', 'way', 'anyone', 'someone', 'something', 'thing', 'things', 'stuff',
  // everyday filler of longer messages: time, feelings, small talk; none of them names a topic
  'ago', 'already', 'again', 'now', 'today', 'yesterday', 'tomorrow', 'week', 'weeks', 'month', 'months', 'year', 'years',
  'last', 'next', 'first', 'second', 'morning', 'evening', 'night', 'still', 'ever',
  'waiting', 'wait', 'waited', 'think', 'thought', 'seems', 'seem', 'says', 'said', 'see', 'saw', 'look', 'looks', 'looking',
  'make', 'made', 'take', 'took', 'give', 'gave', 'put', 'come', 'came', 'went', 'gone', 'use', 'used', 'using', 'try', 'tried',
  'only', 'even', 'much', 'many', 'more', 'most', 'other', 'another', 'same', 'such', 'own', 'each', 'every', 'both', 'few',
  'good', 'great', 'nice', 'fine', 'well', 'lot', 'lots', 'bit', 'really', 'actually', 'maybe', 'probably', 'please', 'kindly',
  'after', 'before', 'since', 'until', 'while', 'because', 'though', 'although', 'instead', 'out', 'over', 'under', 'off', 'down',
  'guys', 'folks', 'friend', 'wife', 'husband', 'mom', 'mum', 'dad', 'mother', 'father', 'sister', 'brother', 'son', 'daughter',
  'im', 'ive', 'id', 'youre', 'hes', 'shes', 'theyre', 'isnt', 'arent', 'wasnt', 'werent', 'doesnt', 'didnt', 'wont', 'wouldnt',
  'couldnt', 'shouldnt', 'havent', 'hasnt', 'hadnt', 'yet', 'ok', 'oh', 'ah', 'um', 'hmm', 'lol', 'btw', 'asap',
]);

/** Chinese function words and question frames; single characters and jieba words alike. */
export const CHINESE_STOP_WORDS: ReadonlySet<string> = new Set([
  '的', '了', '吗', '呢', '吧', '啊', '呀', '嘛', '是', '我', '你', '您', '他', '她', '它', '们', '我们', '你们', '您好', '你好',
  '在', '和', '与', '也', '都', '就', '还', '又', '很', '太', '这', '那', '这个', '那个', '一个', '一下', '一些', '有', '没有', '没',
  '请', '请问', '问', '问下', '想', '想要', '要', '能', '能不能', '可以', '可不可以', '会', '会不会', '怎么', '怎么办', '怎样', '如何',
  '什么', '为什么', '哪', '哪些', '哪里', '吗？', '谢谢', '好的', '麻烦', '帮', '帮我', '给', '给我', '一', '个', '下', '吧',
  // filler of longer messages
  '已经', '一直', '现在', '今天', '昨天', '明天', '就是', '但是', '因为', '所以', '如果', '然后', '还是', '还有', '大概', '一般', '真的', '非常', '有点',
]);

/** Japanese kanji and katakana frames ("教えて", "お願い", "方法は"); hiragana-only terms are dropped anyway. */
export const JAPANESE_STOP_WORDS: ReadonlySet<string> = new Set([
  '教', '願', '何', '方', '私', '御社', '貴社', '件', '今', '度', '事', '物', '様', '方法', '質問',
  '今日', '昨日', '明日', '先週', '先日', '全然', '本当', '少', '早',
]);

/** Hiragana-only words that do carry topic (when, how much, where); other hiragana terms are grammar. */
export const JAPANESE_KEPT_HIRAGANA: readonly string[] = ['いつ', 'いくら', 'どこ', 'どのくらい', 'どれくらい', 'なくし', 'こわれ'];

/** Every stop word of every language, for callers that do not know the language. */
export const STOP_WORDS: ReadonlySet<string> = new Set([...ENGLISH_STOP_WORDS, ...CHINESE_STOP_WORDS, ...JAPANESE_STOP_WORDS]);
