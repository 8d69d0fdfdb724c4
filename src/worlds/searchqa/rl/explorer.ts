// The search-QA warm start's actor, the other worlds' explorers' twin: a deliberately noisy searcher that knows
// only the question (its task line) and what the pages it saw printed (observed.ts), never the encyclopedia.
// It follows the question's hops in order: it searches the hop's entity with the relation's word ("Marno Nular
// born"), reads the bridge entity off the page that shows the fact ("... in Thamia"), searches the next hop
// ("Thamia capital"), and answers once the pages give the answer, which they have then listed. A search that
// does not show the fact is tried again with the name alone. With probability `noise` it acts at random instead
// (an answer among those listed, or a search of a few words the question and the pages printed), as a weak agent
// does; those steps are marked, so a corpus need not imitate them.
//
// Primed (`prior`, knowledge.ts), it acts on what a hindsight skill states: the facts it states count as read,
// so a bridge entity it names is searched without the first hop; the answer it says is right is given as soon as
// a page lists it, and a page that lists it is searched for at once (the search of the fact that prints it, a
// search the skill names, else its name); an answer it says was wrong is never given; a search it names is made
// before the question's hops.
import type { Rng } from '../../../common/rng.ts';
import type { Environment, Episode, FreeTextCommand } from '../../../env/environment.ts';
import { exploreEpisode, type ExploredEpisode } from '../../../rl/explored_episode.ts';
import { normaliseAnswer } from '../env/answer.ts';
import type { QaStepRecord } from '../env/game.ts';
import { QA_RELATIONS } from '../skills/skill.ts';
import { NO_QA_PRIOR, type QaPrior } from './knowledge.ts';
import {
  answerOf,
  hopChain,
  observedFacts,
  type PageFact,
  RELATION_WORD,
  type ReadQuestion,
  readQuestion,
} from './observed.ts';

interface QaExplorerOptions {
  maxSteps: number;
  noise: number;
  prior?: QaPrior;
}

export type QaExplorerEpisode = ExploredEpisode<QaStepRecord>;

const search = (query: string) => `search[${query}]`;
const answer = (text: string) => `answer[${text}]`;

/** The searches made so far, as the world read them. */
function searched(records: readonly QaStepRecord[]): Set<string> {
  return new Set(records.flatMap((r) => (r.query === null ? [] : [r.query])));
}

/** The facts of the pages seen, with the prior's beside them (a page's own reading first). */
function knownFacts(records: readonly QaStepRecord[], prior: QaPrior): Map<string, PageFact> {
  const book = observedFacts(records);
  for (const [key, fact] of prior.facts) if (!book.has(key)) book.set(key, fact);
  return book;
}

/** The explorer's own choice from the question, the pages seen and the prior. */
function deliberateCommand(
  question: ReadQuestion,
  records: readonly QaStepRecord[],
  admissible: readonly string[],
  prior: QaPrior,
): string {
  const done = searched(records);
  const fresh = (query: string) => !done.has(query);
  const avoided = new Set(prior.avoid.map(normaliseAnswer));
  const book = knownFacts(records, prior);
  const right = prior.answer ?? answerOf(question, book);
  if (right !== null && !avoided.has(normaliseAnswer(right))) {
    if (admissible.includes(answer(right))) return answer(right);
    // The answer is known but no page listed it yet: the search of a fact that prints it, one the skill names, else
    // its name.
    const printing = [...book.values()]
      .filter((f) => Object.values(f.slots).includes(right))
      .map((f) => `${f.entity} ${RELATION_WORD[f.relation]}`);
    const query = [...printing, ...prior.searches, right].find(fresh);
    if (query !== undefined) return search(query);
  }
  const named = prior.searches.find(fresh);
  if (named !== undefined) return search(named);
  for (const hop of hopChain(question, book)) {
    if (hop.fact !== null || hop.entity === null) continue;
    const query = [`${hop.entity} ${RELATION_WORD[hop.relation]}`, hop.entity].find(fresh);
    if (query !== undefined) return search(query);
  }
  // Nothing left to search for: the last answer listed that was not said to be wrong, else the question again.
  const guess = admissible.findLast((c) => !avoided.has(normaliseAnswer(c.slice('answer['.length, -1))));
  return guess ?? search(`${question.subjects[0]} ${RELATION_WORD[hopChain(question, book)[0].relation]}`);
}

/** A random command: one of the answers listed, or a search of one to three words of the question and pages. */
function randomCommand(
  admissible: readonly string[],
  bar: FreeTextCommand | null,
  question: ReadQuestion,
  records: readonly QaStepRecord[],
  rng: Rng,
): string {
  if (admissible.length > 0 && (bar === null || rng.float() < 0.5)) return rng.pick(admissible);
  const seen = [...observedFacts(records).values()].flatMap((f) => Object.values(f.slots));
  const words = [...question.subjects, ...seen].flatMap((t) => t.split(' ')).concat(QA_RELATIONS);
  const query = Array.from({ length: 1 + rng.int(3) }, () => rng.pick(words));
  return search(query.join(' '));
}

/** The explorer's own choice in a game under way, primed with `prior` or not: what a reader of a skill would do. */
export function qaExplorerCommand(game: Episode<QaStepRecord>, goal: string, prior: QaPrior = NO_QA_PRIOR): string {
  const question = readQuestion(goal);
  if (question === null) throw new RangeError(`not a search-QA question: ${JSON.stringify(goal)}`);
  return deliberateCommand(question, game.records, game.admissibleCommands(), prior);
}

/** One episode of the scene by the explorer; the scene is read only through the world (its question and pages). */
export function runQaExplorer<S>(
  env: Environment<S, QaStepRecord>,
  scene: S,
  rng: Rng,
  options: QaExplorerOptions,
): QaExplorerEpisode {
  const game = env.episode(scene, options.maxSteps);
  const goal = env.goal(scene);
  const question = readQuestion(goal);
  if (question === null) throw new RangeError(`not a search-QA question: ${JSON.stringify(goal)}`);
  const prior = options.prior ?? NO_QA_PRIOR;
  return exploreEpisode(game, rng, options.noise, {
    random: (commands, bar) => randomCommand(commands, bar, question, game.records, rng),
    deliberate: (commands, _bar, primed) =>
      deliberateCommand(question, game.records, commands, primed ? prior : NO_QA_PRIOR),
    primed: prior !== NO_QA_PRIOR,
  });
}
