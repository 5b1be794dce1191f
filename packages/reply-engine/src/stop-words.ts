/**
 * Terms dropped by the tokenizer, for indexing and querying alike. Kept deliberately short: only
 * words that carry no topic at all, so "what is" or "can you" do not match every entry, plus
 * courtesy words, so "thanks!" does not count as a question (and never pulls an earlier question
 * back from the history). Only the single characters are dropped for Chinese; the bigrams that
 * contain them (我想) are kept. Japanese needs no entries: Hiragana-only terms are dropped anyway.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  // English
  'a', 'an', 'the', 'is', 'are', 'am', 'was', 'be', 'do', 'does', 'did',
  'i', 'me', 'my', 'you', 'your', 'we', 'our', 'it', 'its', 'this', 'that',
  'to', 'of', 'in', 'on', 'at', 'by', 'for', 'with', 'and', 'or', 'have', 'has', 'get',
  'what', 'how', 'can', 'could', 'would', 'will', 'there',
  'hi', 'hello', 'please', 'thanks', 'thank', 'ok', 'okay',
  // Chinese particles and pronouns
  '的', '了', '吗', '呢', '吧', '是', '我', '你',
]);
