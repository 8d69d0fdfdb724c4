// The splits. Two things are held out of training:
//   entities:      one person and one organisation in five, chosen by a hash of the name. Their passages are
//                  in the encyclopedia and show up in searches, but no training question needs them (as its
//                  subject, its bridge or its answer), so a policy cannot have learnt their facts by heart;
//   compositions:  the bridge kind 'founder-birth-country' (organisation -> founder -> country of birth). Its
//                  two hops are trained, each in other questions ("Who founded the X?", "In which country was Y
//                  born?", "In which year was the founder of the X born?"); their chaining is not.
//   train:  generateQaScene('train', i, seed): neither held-out entities nor the held-out kind.
//   seen:   the same questions with their own stream of games (the fixed eval-seen set).
//   unseen: one game in four asks the held-out kind (of any entities); the others ask a trained kind about at
//           least one held-out entity ('capital', about countries only, which are never held out, is left out).
// A game's type (single-hop, bridge, comparison) is drawn uniformly, then a kind of that type, then its
// subjects. Every game is one whose hops the expert's searches find: a drawn question that fails is drawn
// again. The fixed evaluation sets use EVAL_SEED. Validation games are drawn with a seed of their own, so that no
// choice scores on the reported evaluation nor on games a training run plays: validation, of the seen split (the
// teacher check's games), and validation-unseen, of the unseen split less every question eval-unseen asks (the
// sweeps' games). eval-unseen needs every held-out entity, so validation-unseen asks other questions about the
// same held-out entities: no policy has trained on them, but eval-unseen asks about them too. The held-out kind
// asks one question per organisation, and eval-unseen asks most of them, so about one validation-unseen game in
// ten is of that kind (of the few organisations left) rather than one in four.
import { Rng, hashString } from '../../../common/rng.ts';
import { DEFAULT_ENCYCLOPEDIA, type Encyclopedia, encyclopediaOf, type EncyclopediaSpec } from './encyclopedia.ts';
import { unfoundHops } from './expert.ts';
import {
  KINDS,
  makeQuestion,
  QA_TASK_TYPES,
  type QaQuestion,
  type QaTaskType,
  QUESTION_KINDS,
  type QuestionKind,
  subjectsRefusal,
} from './questions.ts';
import { type QaScene, qaSceneToJson } from './scene.ts';

export type QaSplit = 'train' | 'seen' | 'unseen';
const QA_SPLITS: readonly QaSplit[] = ['train', 'seen', 'unseen'];
/** The fixed eval sets' sizes, the shop's: enough for a success rate within about 7 points (95%). */
export const QA_EVAL_COUNTS = { seen: 200, unseen: 200 } as const;
/** The other worlds' evaluation and validation seeds, so that every world's fixed sets are drawn alike. */
const EVAL_SEED = 2026;
const VALIDATION_SEED = 2027;
export const HELD_OUT_KINDS: readonly QuestionKind[] = ['founder-birth-country'];
const HELD_OUT_ONE_IN = 5;
/** The share of the unseen split that asks a held-out kind rather than about held-out entities. */
const COMPOSITION_SHARE = 0.25;
const MAX_DRAWS = 1000;

/** What a game shares with others that ask the same (Environment.clusterOf): its kind and its subjects. */
export function qaCluster(scene: QaScene): string {
  return `${scene.question.kind}/${scene.question.subjects.join('+')}`;
}

/** Whether an entity is held out of training: people and organisations only (every bridge runs through countries). */
export function isHeldOutEntity(enc: Encyclopedia, name: string): boolean {
  const kind = enc.kinds.get(name);
  if (kind !== 'person' && kind !== 'organisation') return false;
  return hashString(`searchqa/held-out/${name}`) % HELD_OUT_ONE_IN === 0;
}

/** Whether a question is outside training: a held-out kind, or a held-out entity among those it needs. */
export function isUnseenQuestion(enc: Encyclopedia, question: Pick<QaQuestion, 'kind' | 'needed'>): boolean {
  return HELD_OUT_KINDS.includes(question.kind) || question.needed.some((name) => isHeldOutEntity(enc, name));
}

const namesOf = (enc: Encyclopedia) => ({
  person: enc.people.map((p) => p.name),
  organisation: enc.organisations.map((o) => o.name),
  country: enc.countries.map((c) => c.name),
  city: enc.cities.map((c) => c.name),
});

/** The kinds a split draws: those of one type, less the held-out kinds (and for unseen, 'capital'). */
function kindsOf(type: QaTaskType, split: QaSplit): QuestionKind[] {
  return QUESTION_KINDS.filter(
    (k) => KINDS[k].type === type && !HELD_OUT_KINDS.includes(k) && (split !== 'unseen' || k !== 'capital'),
  );
}

/** Game `index` of a split: the same split, index, seed and encyclopedia give the same scene. */
export function generateQaScene(
  split: QaSplit,
  index: number,
  seed = 0,
  encyclopedia: EncyclopediaSpec = DEFAULT_ENCYCLOPEDIA,
): QaScene {
  if (!QA_SPLITS.includes(split)) throw new RangeError(`unknown searchqa split "${split}" (${QA_SPLITS.join(', ')})`);
  if (!Number.isInteger(index) || index < 0)
    throw new RangeError(`game index must be a non-negative integer, got ${index}`);
  const enc = encyclopediaOf(encyclopedia);
  const names = namesOf(enc);
  const rng = new Rng(hashString(`searchqa/game/${split}/${seed}/${index}`));
  const composition = split === 'unseen' && rng.float() < COMPOSITION_SHARE;
  const kind = composition ? rng.pick(HELD_OUT_KINDS) : rng.pick(kindsOf(rng.pick(QA_TASK_TYPES), split));
  for (let draw = 0; draw < MAX_DRAWS; draw++) {
    const subjects = KINDS[kind].subjects.map((k) => rng.pick(names[k]));
    if (subjectsRefusal(enc, kind, subjects) !== null) continue;
    const question = makeQuestion(enc, kind, subjects);
    if (!composition && isUnseenQuestion(enc, question) !== (split === 'unseen')) continue;
    if (unfoundHops(enc, question).length > 0) continue;
    return { encyclopedia, question };
  }
  throw new Error(`no ${split} ${kind} question found in ${MAX_DRAWS} draws (encyclopedia seed ${encyclopedia.seed})`);
}

export function evalQaScenes(split: 'seen' | 'unseen', count: number = QA_EVAL_COUNTS[split]): QaScene[] {
  return Array.from({ length: count }, (_, i) => generateQaScene(split, i, EVAL_SEED));
}

/**
 * The validation games: the seen split under its own seed, less any game of the eval-seen set (the questions are
 * few enough that two streams draw some of the same), so that tuning never scores on a reported game.
 */
export function validationQaScenes(count: number = QA_EVAL_COUNTS.seen): QaScene[] {
  const reported = new Set(evalQaScenes('seen').map(qaSceneToJson));
  const out: QaScene[] = [];
  for (let i = 0; out.length < count; i++) {
    const scene = generateQaScene('seen', i, VALIDATION_SEED);
    if (!reported.has(qaSceneToJson(scene))) out.push(scene);
  }
  return out;
}

/** The validation-unseen games: the unseen split under the validation seed, less every question eval-unseen asks. */
export function validationUnseenQaScenes(count: number = QA_EVAL_COUNTS.unseen): QaScene[] {
  const reported = new Set(evalQaScenes('unseen').map(qaCluster));
  const out: QaScene[] = [];
  for (let i = 0; out.length < count; i++) {
    if (i >= MAX_DRAWS * Math.max(1, count))
      throw new Error(
        `only ${out.length} of ${count} validation-unseen games in ${i} draws: eval-unseen holds the rest`,
      );
    const scene = generateQaScene('unseen', i, VALIDATION_SEED);
    if (!reported.has(qaCluster(scene))) out.push(scene);
  }
  return out;
}
