import type { Lexicon } from '../text/synonyms.js';
import { MIN_OWN_FACTOR, termsOf } from '../text/tokenize.js';
import type { KnowledgeEntry } from './knowledge-base.js';

/** Answers are indexed too, their words counting this much: they name what the questions leave out. */
export const ANSWER_FACTOR = 0.5;
/** How much an entry that has a term only in its answer counts towards the term's spread. */
export const ANSWER_SPREAD = 0.6;

/**
 * Distinctiveness of a term found in `df` of `n` entries: 1 for one entry, falling towards 0 for a
 * term every entry has. Squared, so shared words ("order", "订单", "注文") count far less than words
 * of one entry, and normalised by log(1 + n), so scores read the same for any FAQ size.
 */
export function distinctiveness(df: number, n: number): number {
  const idf = Math.log(1 + n / df) / Math.log(1 + n);
  return idf * idf;
}

/**
 * Where one index term occurs: its distinctiveness and its run of positions in the index's pooled
 * postings (PostingsPool): `pool.entries[from … to)` are the entries having it.
 */
export interface TermPostings {
  /** Distinctiveness of the term over the FAQ's entries. */
  weight: number;
  from: number;
  to: number;
}

/**
 * Every term's postings in five typed arrays shared by the whole index, one consecutive run per term,
 * read without allocation while ranking. A message's terms touch their runs and these few arrays,
 * not five arrays of their own each: in service the engine's time is mostly its data coming back into
 * the processor's caches (docs/knowledge-engine.md, "Cost"), and fewer, closer objects cost less of it.
 */
export interface PostingsPool {
  /** By position: an entry having the term (ascending within a term's run), and the term's largest factor there (any of its documents). */
  entries: Int32Array;
  entryFactors: Float64Array;
  /** The documents of position k's entry having the term are docs[docStart[k] … docStart[k + 1]) (one more than the positions). */
  docStart: Int32Array;
  docs: Int32Array;
  docFactors: Float64Array;
}

/** A FAQ turned into postings: everything the ranking needs that depends on the FAQ alone. */
export interface IndexPostings {
  terms: Map<string, TermPostings>;
  pool: PostingsPool;
  /** Entry of each document; an entry's documents are consecutive. */
  docEntry: Int32Array;
  /** The sum of a document's own terms' (factor ≥ MIN_OWN_FACTOR) factor × weight. */
  docWeights: Float64Array;
  /** The own terms of each phrasing, for the word pairs (term-pairs.ts); answers have none. */
  phrasingTerms: { entry: number; terms: Map<string, number> }[];
}

function termsWithScale(text: string, scale: number, into: Map<string, number>, lexicon: Lexicon): void {
  for (const [term, factor] of termsOf(text, lexicon)) if ((into.get(term) ?? 0) < factor * scale) into.set(term, factor * scale);
}

interface Building {
  docs: number[];
  factors: number[];
  /** Entries having the term in a phrasing, and in an answer. */
  inQuestions: Set<number>;
  inAnswers: Set<number>;
}

/**
 * Indexes a FAQ: each phrasing of a question is a document, and so are each entry's answers (their
 * words at ANSWER_FACTOR). A term's weight is its distinctiveness over the entries, an entry that
 * has it only in its answer counting ANSWER_SPREAD (answers use common words freely).
 */
export function buildIndexPostings(entries: readonly KnowledgeEntry[], lexicon: Lexicon): IndexPostings {
  const building = new Map<string, Building>();
  const docEntry: number[] = [];
  const docTerms: Map<string, number>[] = [];
  const phrasingTerms: IndexPostings['phrasingTerms'] = [];
  const addDoc = (entry: number, terms: Map<string, number>, answer: boolean): void => {
    const doc = docEntry.length;
    docEntry.push(entry);
    docTerms.push(terms);
    for (const [term, factor] of terms) {
      let postings = building.get(term);
      if (!postings) {
        postings = { docs: [], factors: [], inQuestions: new Set(), inAnswers: new Set() };
        building.set(term, postings);
      }
      postings.docs.push(doc);
      postings.factors.push(factor);
      (answer ? postings.inAnswers : postings.inQuestions).add(entry);
    }
  };
  entries.forEach((entry, index) => {
    for (const question of entry.questions) {
      const terms = new Map<string, number>();
      termsWithScale(question, 1, terms, lexicon);
      addDoc(index, terms, false);
      phrasingTerms.push({ entry: index, terms });
    }
    const answerTerms = new Map<string, number>();
    for (const parts of Object.values(entry.answer))
      for (const part of parts) if (part.type === 'text') termsWithScale(part.content, ANSWER_FACTOR, answerTerms, lexicon);
    addDoc(index, answerTerms, true);
  });
  const terms = new Map<string, TermPostings>();
  const entryList: number[] = [];
  const entryFactors: number[] = [];
  const docStart: number[] = [];
  const docs: number[] = [];
  const docFactors: number[] = [];
  for (const [term, built] of building) {
    let onlyInAnswers = 0;
    for (const entry of built.inAnswers) if (!built.inQuestions.has(entry)) onlyInAnswers += 1;
    const weight = distinctiveness(Math.max(1, built.inQuestions.size + ANSWER_SPREAD * onlyInAnswers), entries.length);
    // documents were added in entry order, so each entry's documents are one run of the list
    const from = entryList.length;
    built.docs.forEach((doc, i) => {
      const entry = docEntry[doc] ?? 0;
      const factor = built.factors[i] ?? 0;
      if (entryList.length === from || entryList[entryList.length - 1] !== entry) {
        entryList.push(entry);
        entryFactors.push(factor);
        docStart.push(docs.length);
      } else if (factor > (entryFactors[entryFactors.length - 1] ?? 0)) entryFactors[entryFactors.length - 1] = factor;
      docs.push(doc);
      docFactors.push(factor);
    });
    terms.set(term, { weight, from, to: entryList.length });
  }
  const pool: PostingsPool = {
    entries: Int32Array.from(entryList),
    entryFactors: Float64Array.from(entryFactors),
    // the runs of documents follow one another: each position's ends where the next one's starts
    docStart: Int32Array.from([...docStart, docs.length]),
    docs: Int32Array.from(docs),
    docFactors: Float64Array.from(docFactors),
  };
  const docWeights = new Float64Array(docEntry.length);
  docTerms.forEach((termsOfDoc, doc) => {
    let sum = 0;
    for (const [term, factor] of termsOfDoc) if (factor >= MIN_OWN_FACTOR) sum += factor * (terms.get(term)?.weight ?? 0);
    docWeights[doc] = sum;
  });
  return { terms, pool, docEntry: Int32Array.from(docEntry), docWeights, phrasingTerms };
}
