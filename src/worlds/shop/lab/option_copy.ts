// The diagnostic behind the shop warm start's focus (bench/notes/shop.md, "The copy is learnable; the corpus hid
// it"): can a model learn to choose, among the option values a page lists, the one its task line names? Each
// example is scored at the value token alone, under the mask of the values listed, so that chance is 1 over them.
// `npm run seed -- probe option-copy` (src/worlds/shop/lab/probe.ts) runs it.
import type { Backend } from '../../../backend/backend.ts';
import { Rng } from '../../../common/rng.ts';
import { SHOP } from '../env/environment.ts';
import { BUTTONS } from '../env/buttons.ts';
import { SELECTED } from '../env/pages.ts';
import type { Tokenizer } from '../../../text/tokenizer.ts';
import { packBatch, type ScoredSequence } from '../../../rl/batch.ts';
import { shopRl } from '../rl/adapter.ts';
import { trainWarmStart, WARMSTART_DEFAULTS, type Corpus } from '../../../rl/warmstart.ts';

export interface OptionChoice {
  /** Scored at one position: the value chosen. */
  sequence: ScoredSequence;
  /** The values the mask allows there. */
  listed: number[];
  answer: number;
}

/** Which of the shop's option choices: an item's first (nothing selected yet), the later ones, or every one. */
type ChoiceKind = 'first' | 'later' | 'all';

/** The synthetic task's option values and filler words, all words of the shop's vocabulary. */
const SYNTHETIC_VALUES = [
  'black',
  'brown',
  'grey',
  'green',
  'red',
  'blue',
  'navy',
  'white',
  'pink',
  'small',
  'medium',
  'large',
  'silver',
  'gold',
];
const SYNTHETIC_OTHERS = [
  'i',
  'need',
  'a',
  'vintage',
  'leather',
  'tote',
  'bag',
  ',',
  'in',
  'size',
  'and',
  'price',
  'lower',
  'than',
  'dollars',
  '.',
  'cotton',
  'shirt',
];
/** Values a synthetic page lists. */
const SYNTHETIC_LISTED = 5;

function maskOf(tok: Tokenizer, ids: readonly number[]): Uint32Array {
  const mask = new Uint32Array(Math.ceil(tok.vocabSize / 32));
  for (const id of ids) mask[id >>> 5] |= 1 << (id & 31);
  return mask;
}

/**
 * `count` synthetic choices of the shop's form: a task line of `taskWords` words naming one of 5 listed values,
 * `filler` words between it and the list; with `after`, the naming words follow the list in a skill block
 * instead (where the shop's skill sits).
 */
export function syntheticChoices(
  tok: Tokenizer,
  seed: number,
  count: number,
  taskWords: number,
  filler: number,
  after: boolean,
): OptionChoice[] {
  const rng = new Rng(seed);
  const values = SYNTHETIC_VALUES.map((w) => tok.id(w));
  const others = SYNTHETIC_OTHERS.map((w) => tok.id(w));
  const pick = (list: readonly number[]) => list[rng.int(list.length)];
  return Array.from({ length: count }, () => {
    const listed = rng.shuffle(values.slice()).slice(0, SYNTHETIC_LISTED);
    const answer = pick(listed);
    const task = Array.from({ length: taskWords }, () => pick(others));
    task[rng.int(taskWords)] = answer;
    const ids = [
      tok.id('<task>'),
      ...(after ? [] : task),
      tok.id('<obs>'),
      ...Array.from({ length: filler }, () => pick(others)),
    ];
    for (const v of rng.shuffle(listed.slice())) ids.push(tok.id('SEP'), v);
    if (after) ids.push(tok.id('<skill>'), ...task, tok.endId);
    ids.push(tok.id('<act>'), tok.id('click'), tok.id('['));
    const at = ids.length;
    ids.push(answer);
    return {
      sequence: { ids: Int32Array.from(ids), positions: Int32Array.from([at]), masks: maskOf(tok, listed) },
      listed,
      answer,
    };
  });
}

/** The option choices of the shop's act corpus of `seed` and `episodes` games, each scored at its value token alone. */
export function shopChoices(tok: Tokenizer, seed: number, episodes: number, which: ChoiceKind): OptionChoice[] {
  const world = shopRl(SHOP);
  const corpus = world.warmStartCorpus(tok, 512, {
    ...WARMSTART_DEFAULTS,
    ...world.warmStartDefaults,
    seed,
    episodes,
    kinds: ['act'],
  });
  const words = Math.ceil(tok.vocabSize / 32);
  const out: OptionChoice[] = [];
  const [click, open, close, selected] = [tok.id('click'), tok.id('['), tok.id(']'), tok.encode(SELECTED)[0]];
  // Buttons and item ids (whose first piece is 'b') are no option values.
  const notValues = new Set([...Object.values(BUTTONS).map((b) => b.toLowerCase()), 'b']);
  for (const s of corpus.sequences) {
    const at = s.positions[0] + 2;
    if (s.ids[s.positions[0]] !== click || s.ids[at - 1] !== open || s.ids[at + 1] !== close) continue;
    const mask = s.masks.slice(2 * words, 3 * words);
    const listed = Array.from({ length: tok.vocabSize }, (_, id) => id).filter(
      (id) => (mask[id >>> 5] >>> (id & 31)) & 1,
    );
    const answer = s.ids[at];
    if (notValues.has(tok.token(answer)) || listed.length < 2) continue;
    const isFirst = !s.ids.subarray(0, at).includes(selected);
    if ((which === 'first' && !isFirst) || (which === 'later' && isFirst)) continue;
    out.push({ sequence: { ids: s.ids, positions: Int32Array.from([at]), masks: mask }, listed, answer });
  }
  return out;
}

/** The accuracy a uniform choice among the listed values would have, on average over the choices. */
export function chanceOf(choices: readonly OptionChoice[]): number {
  return choices.reduce((s, c) => s + 1 / c.listed.length, 0) / Math.max(1, choices.length);
}

interface ChoiceScore {
  /** Share of the choices whose answer is the most probable listed value. */
  accuracy: number;
  /** Mean negative log-likelihood of the answer under the listed values' mask. */
  nll: number;
}

/** How well the backend's current weights choose: one forward over every choice. */
export async function scoreChoices(
  backend: Backend,
  tok: Tokenizer,
  held: readonly OptionChoice[],
): Promise<ChoiceScore> {
  const V = tok.vocabSize;
  const rows = await backend.scoreRows(
    packBatch(
      held.map((c) => c.sequence),
      tok.padId,
    ),
  );
  let right = 0;
  let nll = 0;
  held.forEach((c, k) => {
    const best = c.listed.reduce((a, b) => (rows[k * V + b] > rows[k * V + a] ? b : a));
    right += best === c.answer ? 1 : 0;
    nll -= rows[k * V + c.answer];
  });
  return { accuracy: right / Math.max(1, held.length), nll: nll / Math.max(1, held.length) };
}

/** The fifths a run of `steps` is trained in, as their ends: 5 boundaries, the last `steps`. */
export function fifthEnds(steps: number): number[] {
  return [1, 2, 3, 4, 5].map((fifth) => Math.round((fifth * steps) / 5));
}

/**
 * Trains on the choices alone in five parts (the warm start's batch, rate and schedule in each, part k from
 * seed k), calling `after` with the steps done at the end of each.
 */
export async function trainOnChoices(
  backend: Backend,
  tok: Tokenizer,
  train: readonly OptionChoice[],
  steps: number,
  after: (steps: number) => Promise<void>,
): Promise<void> {
  const corpus: Corpus = {
    sequences: train.map((c) => c.sequence),
    kinds: train.map(() => 'act'),
    explorerSuccess: 0,
    counts: { act: train.length, follow: 0, analyze: 0 },
  };
  let done = 0;
  for (const [k, end] of fifthEnds(steps).entries()) {
    await trainWarmStart(backend, tok, corpus, { ...WARMSTART_DEFAULTS, seed: k + 1, steps: end - done });
    done = end;
    await after(done);
  }
}
