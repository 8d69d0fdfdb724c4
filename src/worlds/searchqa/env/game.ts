// An episode over one question, in Search-R1's form. The opening observation is the question; search[query]
// shows the top passages of the encyclopedia for the query (search.ts); answer[text] ends the episode with
// reward 1 when the answer matches the gold answer after normalisation (answer.ts), and 0 otherwise, its F1
// recorded beside it. The episode is cut, with reward 0 and F1 0, after maxSteps commands, valid or not. Any
// other text, an empty search or answer and one longer than a policy writes answer "Nothing happens." and
// change nothing. The penalty for invalid commands belongs to the trainer, as in the other worlds.
//
// The answer is free text, as in Search-R1, and any answer[text] is played and graded; the commands the state
// lists are the answers a page of the episode has shown: every name and year printed by a passage retrieved
// so far, in the order they first appeared. Under constrained decoding a policy can say only these, so it must
// search before it answers and answers with a string the world prints: a tiny model learns to choose among a
// few dozen listed answers, where it would first have to learn to spell names of its own.
import type { EpisodeStep, FreeTextCommand, StepOutcome } from '../../../env/environment.ts';
import { GameBase } from '../../../env/game.ts';
import { answerF1, exactMatch } from './answer.ts';
import { canonicalCommand, MAX_QUERY_PIECES, overPieces, parseCommand, pieceLimit } from './commands.ts';
import { type Encyclopedia, encyclopediaOf } from './encyclopedia.ts';
import { expertPlan } from './expert.ts';
import { SEARCHQA_FACTS } from './facts.ts';
import { OBSERVATIONS, renderPassages } from './observations.ts';
import type { QaScene } from './scene.ts';
import { type QaSearch, searchEngineOf } from './search.ts';
import { queryWords } from './vocabulary.ts';

/** Commands before the episode is cut (WorldFacts.maxSteps). */
export const QA_MAX_STEPS = SEARCHQA_FACTS.maxSteps;

export interface QaStepRecord extends EpisodeStep {
  /** The step's search query; null on other steps. */
  query: string | null;
  /** The encyclopedia indices of the passages the step's search showed, best first; empty on other steps. */
  passages: number[];
  /** The step's answer as written; null on other steps. */
  answer: string | null;
  /** The answer's F1 against the gold answer (answer.ts); 0 on other steps and for no answer. */
  f1: number;
}

/**
 * The world's score of an episode: the F1 of its answer, which ends it (so it is the last step's), or 0 when
 * it ran out of steps first. A won episode scores 1, as HotpotQA reports F1 beside exact match.
 */
export function qaScore(records: readonly Pick<QaStepRecord, 'f1'>[]): number {
  return records.length === 0 ? 0 : records[records.length - 1].f1;
}

let searchBar: FreeTextCommand | null = null;

export class QaGame extends GameBase<QaScene, QaStepRecord> {
  readonly observation: string;
  private readonly enc: Encyclopedia;
  private readonly engine: QaSearch;
  private readonly shown = new Set<number>();
  private readonly answers: string[] = [];

  constructor(scene: QaScene, options: { maxSteps?: number } = {}) {
    super(scene, options.maxSteps ?? QA_MAX_STEPS);
    this.enc = encyclopediaOf(scene.encyclopedia);
    this.engine = searchEngineOf(this.enc);
    this.observation = `${OBSERVATIONS.question} ${scene.question.text}`;
    this.recordOpening(this.observation, { query: null, passages: [], answer: null, f1: 0 });
  }

  /** The search bar: "search[", one to MAX_QUERY_PIECES words of the encyclopedia, "]"; null once done. */
  freeText(): FreeTextCommand | null {
    if (this.done) return null;
    searchBar ??= { open: 'search[', close: ']', words: queryWords(), maxPieces: MAX_QUERY_PIECES };
    return searchBar;
  }

  /** answer[x] for every name and year the episode's pages have shown, in the order they first appeared. */
  admissibleCommands(): string[] {
    return this.done ? [] : this.answers.map((a) => `answer[${a}]`);
  }

  step(command: string): StepOutcome {
    this.countStep();
    const parsed = parseCommand(command);
    let extra: Pick<QaStepRecord, 'query' | 'passages' | 'answer' | 'f1'> = {
      query: null,
      passages: [],
      answer: null,
      f1: 0,
    };
    let result: StepOutcome;
    if (parsed === null || parsed.argument === '' || overPieces(parsed.argument, pieceLimit(parsed.verb))) {
      result = { observation: OBSERVATIONS.nothingHappens, reward: 0, done: false, won: false, valid: false };
    } else if (parsed.verb === 'search') {
      const found = this.engine.search(parsed.argument);
      for (const p of found) {
        this.shown.add(p.index);
        for (const m of p.mentions) if (!this.answers.includes(m)) this.answers.push(m);
      }
      extra = { ...extra, query: parsed.argument, passages: found.map((p) => p.index) };
      result = { observation: renderPassages(found), reward: 0, done: false, won: false, valid: true };
    } else {
      const gold = this.scene.question.answer;
      const won = exactMatch(parsed.argument, gold);
      extra = { ...extra, answer: parsed.argument, f1: answerF1(parsed.argument, gold) };
      const observation = won ? OBSERVATIONS.correct : OBSERVATIONS.wrong;
      result = { observation, reward: won ? 1 : 0, done: true, won, valid: true };
    }
    return this.endStep(result, result.done, canonicalCommand(command), extra);
  }

  /** The expert's commands from the current state to a correct answer; none once the episode is over. */
  expertPlan(): string[] {
    return this.done ? [] : expertPlan(this.enc, this.scene.question, this.shown);
  }
}
