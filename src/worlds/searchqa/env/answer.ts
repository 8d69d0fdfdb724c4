// How an answer is graded, as SQuAD v1.1's and HotpotQA's evaluation scripts grade one: both texts normalised
// (lower case, ASCII punctuation removed, the articles "a", "an" and "the" removed, runs of whitespace made one
// space), then exact match of the normalised texts, and F1 over their words (precision and recall of the words
// the two share, counted with repeats). An empty answer shares no word and scores 0, as in those scripts.
// HotpotQA's special case for yes/no answers is left out: no question here has one.

/** Python's string.punctuation, which SQuAD's normalize_answer removes; other punctuation stays. */
const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
/** Articles as whole words; a word character is a Unicode letter, digit or "_", as Python 3's \b reads one. */
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;

export function normaliseAnswer(text: string): string {
  return text
    .toLowerCase()
    .replace(PUNCTUATION, '')
    .replace(ARTICLES, ' ')
    .split(/\s+/)
    .filter((w) => w !== '')
    .join(' ');
}

export function exactMatch(prediction: string, gold: string): boolean {
  return normaliseAnswer(prediction) === normaliseAnswer(gold);
}

export function answerF1(prediction: string, gold: string): number {
  const predicted = normaliseAnswer(prediction)
    .split(' ')
    .filter((w) => w !== '');
  const wanted = normaliseAnswer(gold)
    .split(' ')
    .filter((w) => w !== '');
  const left = new Map<string, number>();
  for (const w of wanted) left.set(w, (left.get(w) ?? 0) + 1);
  let shared = 0;
  for (const w of predicted) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      shared++;
      left.set(w, n - 1);
    }
  }
  if (shared === 0) return 0;
  const precision = shared / predicted.length;
  const recall = shared / wanted.length;
  return (2 * precision * recall) / (precision + recall);
}
