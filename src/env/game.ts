// What every world's game shares (an Episode of src/env/environment.ts): the step budget and its check, the count
// of steps, the end of the episode and whether it was won, and the record of every step, step 0 the opening
// observation. A world's game adds its rules: what a command does, what ends the episode besides the budget, and
// its own fields of a step's record.
import type { EpisodeStep, StepOutcome } from './environment.ts';

/** A world's own fields of a step's record. */
type OwnFields<R extends EpisodeStep> = Omit<R, keyof EpisodeStep>;

export abstract class GameBase<S, R extends EpisodeStep> {
  readonly scene: S;
  readonly maxSteps: number;
  readonly records: R[] = [];
  private stepCount = 0;
  private finished = false;
  private success = false;

  constructor(scene: S, maxSteps: number) {
    if (!Number.isInteger(maxSteps) || maxSteps < 1)
      throw new RangeError(`maxSteps must be a positive integer, got ${maxSteps}`);
    this.scene = scene;
    this.maxSteps = maxSteps;
  }

  get steps(): number {
    return this.stepCount;
  }

  get done(): boolean {
    return this.finished;
  }

  get won(): boolean {
    return this.success;
  }

  /** Records the opening observation as step 0: no action, no reward, with the world's own fields. */
  protected recordOpening(observation: string, own: OwnFields<R>): void {
    const opening: EpisodeStep = { step: 0, action: '', observation, reward: 0, done: false, won: false, valid: true };
    this.records.push({ ...opening, ...own } as R);
  }

  /** Counts a command; one after the end of the episode is refused. */
  protected countStep(): void {
    if (this.finished) throw new Error('the episode is over: no step after done');
    this.stepCount++;
  }

  /**
   * Ends the counted step: the episode ends where the world says (`ended`) or at the step budget; the step is
   * recorded with the action as the world writes it and its own fields.
   */
  protected endStep(result: Omit<StepOutcome, 'done'>, ended: boolean, action: string, own: OwnFields<R>): StepOutcome {
    this.success = result.won;
    this.finished = ended || this.stepCount >= this.maxSteps;
    // In the order every world's records have always had their fields.
    const { observation, reward, won, valid } = result;
    const outcome: StepOutcome = { observation, reward, done: this.finished, won, valid };
    this.records.push({ ...outcome, step: this.stepCount, action, ...own } as R);
    return outcome;
  }
}
