// The counter world's rules on the shared game (src/env/game.ts): "add one" and "take one" move the counter
// within 0 and LARGEST; the game is won when it shows the target.
import type { Episode, EpisodeStep, StepOutcome } from '../../../../env/environment.ts';
import { GameBase } from '../../../../env/game.ts';
import { counterExpertPlan } from './expert.ts';
import { COUNTER_FACTS } from './facts.ts';
import type { CounterScene } from './scene.ts';
import { COMMANDS, LARGEST, NOTHING_HAPPENS, shows } from './vocabulary.ts';

/** A step's record with the counter's value after it. */
export interface CounterStepRecord extends EpisodeStep {
  value: number;
}

const MOVES: Readonly<Record<string, number>> = { [COMMANDS.add]: 1, [COMMANDS.take]: -1 };

export class CounterGame extends GameBase<CounterScene, CounterStepRecord> implements Episode<CounterStepRecord> {
  private value: number;

  constructor(scene: CounterScene, maxSteps = COUNTER_FACTS.maxSteps) {
    super(scene, maxSteps);
    this.value = scene.start;
    this.recordOpening(shows(scene.start), { value: scene.start });
  }

  get observation(): string {
    return this.records[this.records.length - 1].observation;
  }

  admissibleCommands(): string[] {
    return [COMMANDS.add, COMMANDS.take];
  }

  freeText(): null {
    return null;
  }

  step(command: string): StepOutcome {
    this.countStep();
    const next = this.value + (Object.hasOwn(MOVES, command) ? MOVES[command] : 0);
    const valid = next !== this.value && next >= 0 && next <= LARGEST;
    if (valid) this.value = next;
    const won = this.value === this.scene.target;
    const observation = valid ? shows(this.value) : NOTHING_HAPPENS;
    return this.endStep({ observation, reward: won ? 1 : 0, won, valid }, won, command, { value: this.value });
  }

  expertPlan(): string[] {
    return counterExpertPlan(this.value, this.scene.target);
  }
}
