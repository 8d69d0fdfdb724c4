// The counter world's splits: the moves from one end of the counter to the other are held out (eval-unseen);
// training and eval-seen draw the shorter moves. eval-unseen happens to hold one of the two held-out moves (five
// to zero), so the validation-unseen games are the other (zero to five).
import { hashString, Rng } from '../../../../common/rng.ts';
import { EVAL_SEED } from '../../../../env/environment.ts';
import { COUNTER_FACTS } from './facts.ts';
import type { CounterScene } from './scene.ts';
import { LARGEST } from './vocabulary.ts';

const distance = (s: CounterScene) => Math.abs(s.target - s.start);

const ALL: readonly CounterScene[] = Array.from({ length: LARGEST + 1 }, (_, start) =>
  Array.from({ length: LARGEST + 1 }, (_, target) => ({ start, target })),
)
  .flat()
  .filter((s) => s.start !== s.target);
const HELD_OUT = ALL.filter((s) => distance(s) === LARGEST);
const TRAINED = ALL.filter((s) => distance(s) < LARGEST);

export const counterTaskType = (s: CounterScene): string => (s.target > s.start ? 'up' : 'down');

/** The moves a game shares with the others of its split: its direction and its distance. */
export const counterCluster = (s: CounterScene): string => `${counterTaskType(s)}-${distance(s)}`;

/** Game `index` of a split drawn with `seed`. */
export function counterScene(split: 'train' | 'seen' | 'unseen', index: number, seed: number): CounterScene {
  return new Rng(hashString(`${split}/${index}`, seed)).pick(split === 'unseen' ? HELD_OUT : TRAINED);
}

export function evalCounterScenes(split: 'seen' | 'unseen', count = COUNTER_FACTS.evalCounts[split]): CounterScene[] {
  return Array.from({ length: count }, (_, i) => counterScene(split, i, EVAL_SEED));
}

/** The validation games: the seen split under a seed of their own. */
export function validationCounterScenes(count = COUNTER_FACTS.evalCounts.seen): CounterScene[] {
  return Array.from({ length: count }, (_, i) => counterScene('seen', i, EVAL_SEED + 1));
}

/** The validation-unseen games: the unseen split under the validation seed, less the moves eval-unseen holds. */
export function validationUnseenCounterScenes(count = COUNTER_FACTS.evalCounts.unseen): CounterScene[] {
  const reported = new Set(evalCounterScenes('unseen').map(counterCluster));
  const out: CounterScene[] = [];
  for (let i = 0; out.length < count; i++) {
    if (i >= 1000 * Math.max(1, count)) throw new Error('eval-unseen holds every held-out move of the counter');
    const scene = counterScene('unseen', i, EVAL_SEED + 1);
    if (!reported.has(counterCluster(scene))) out.push(scene);
  }
  return out;
}
