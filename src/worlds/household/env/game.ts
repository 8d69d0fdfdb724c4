// An episode over one scene: step counting, reward, the end of the episode, and a structured record of
// every step (where the agent stood, what it saw, what it held) for the prompt builders and the skill
// annotator. Reward is 10 on the step that reaches the goal and 0 otherwise; the episode ends on success or
// after maxSteps commands (valid or not). The penalty for invalid commands belongs to the trainer.
import { planFrom } from './expert.ts';
import type { Scene } from './scene.ts';
import { World } from './world.ts';

const WIN_REWARD = 10;
export const DEFAULT_MAX_STEPS = 30;

interface StepResult {
  observation: string;
  reward: number;
  done: boolean;
  won: boolean;
  /** False when the command was not possible ("Nothing happens."): the state did not change. */
  valid: boolean;
}

export interface StepRecord extends StepResult {
  /** 0 is the opening observation (no action); 1.. are commands. */
  step: number;
  action: string;
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

export class Game {
  readonly scene: Scene;
  readonly maxSteps: number;
  /** The opening observation (banner, room, task), as ALFWorld prints it. */
  readonly observation: string;
  readonly records: StepRecord[] = [];
  private readonly world: World;
  private stepCount = 0;
  private finished = false;
  private success = false;

  constructor(scene: Scene, options: GameOptions = {}) {
    const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    if (!Number.isInteger(maxSteps) || maxSteps < 1)
      throw new RangeError(`maxSteps must be a positive integer, got ${maxSteps}`);
    this.world = new World(scene);
    this.scene = scene;
    this.maxSteps = maxSteps;
    this.observation = this.world.intro();
    this.records.push({
      step: 0,
      action: '',
      observation: this.observation,
      reward: 0,
      done: false,
      won: false,
      valid: true,
      location: null,
      holding: null,
      seen: [],
    });
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

  step(command: string): StepResult {
    if (this.finished) throw new Error('the episode is over: no step after done');
    const outcome = this.world.apply(command);
    this.stepCount++;
    const won = outcome.valid && this.world.goalReached();
    this.success = won;
    this.finished = won || this.stepCount >= this.maxSteps;
    const result: StepResult = {
      observation: outcome.observation,
      reward: won ? WIN_REWARD : 0,
      done: this.finished,
      won,
      valid: outcome.valid,
    };
    this.records.push({
      ...result,
      step: this.stepCount,
      action: command,
      location: this.world.location(),
      holding: this.world.holding(),
      seen: outcome.seen,
    });
    return result;
  }

  /** The expert's shortest command list from the current state to the goal. */
  expertPlan(): string[] {
    return planFrom(this.world);
  }
}
