// An episode over one scene: step counting, reward, the end of the episode, and a structured record of
// every step (where the agent stood, what it saw, what it held) for the prompt builders and the skill
// annotator. Reward is 10 on the step that reaches the goal and 0 otherwise; the episode ends on success or
// after maxSteps commands (valid or not). The penalty for invalid commands belongs to the trainer.
import type { EpisodeStep, StepOutcome } from '../../../env/environment.ts';
import { GameBase } from '../../../env/game.ts';
import { planFrom } from './expert.ts';
import { HOUSEHOLD_FACTS } from './facts.ts';
import type { Scene } from './scene.ts';
import { World } from './world.ts';

const WIN_REWARD = 10;
/** Commands before the episode is cut (WorldFacts.maxSteps). */
export const DEFAULT_MAX_STEPS = HOUSEHOLD_FACTS.maxSteps;

export interface StepRecord extends EpisodeStep {
  /** The receptacle the agent stands at after the step; null in the middle of the room. */
  location: string | null;
  /** The object in the agent's hands after the step; null when empty. */
  holding: string | null;
  /** Objects the observation listed (content of a receptacle seen on arrival, open or examine). */
  seen: string[];
}

interface GameOptions {
  maxSteps?: number;
}

export class Game extends GameBase<Scene, StepRecord> {
  /** The opening observation (banner, room, task), as ALFWorld prints it. */
  readonly observation: string;
  private readonly world: World;

  constructor(scene: Scene, options: GameOptions = {}) {
    super(scene, options.maxSteps ?? DEFAULT_MAX_STEPS);
    this.world = new World(scene);
    this.observation = this.world.intro();
    this.recordOpening(this.observation, { location: null, holding: null, seen: [] });
  }

  location(): string | null {
    return this.world.location();
  }

  holding(): string | null {
    return this.world.holding();
  }

  admissibleCommands(): string[] {
    return this.world.admissible();
  }

  /** The household takes only its listed commands. */
  freeText(): null {
    return null;
  }

  step(command: string): StepOutcome {
    this.countStep();
    const outcome = this.world.apply(command);
    const won = outcome.valid && this.world.goalReached();
    const result = { observation: outcome.observation, reward: won ? WIN_REWARD : 0, won, valid: outcome.valid };
    return this.endStep(result, won, command, {
      location: this.world.location(),
      holding: this.world.holding(),
      seen: outcome.seen,
    });
  }

  /** The expert's shortest command list from the current state to the goal. */
  expertPlan(): string[] {
    return planFrom(this.world);
  }
}
