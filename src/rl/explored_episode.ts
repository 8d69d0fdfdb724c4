// An explorer's episode in a world played through the Environment interface (the shop's, search QA's): what the
// warm-start corpus needs of it besides the game, step by step. With probability `noise` a step is a random
// command (the noise visits the states a weak agent reaches); otherwise it is the explorer's own choice. A primed
// explorer (one acting on a skill's knowledge) also notes, per step, the command it would have given without the
// skill where that differs: the steps the skill decided.
import type { Rng } from '../common/rng.ts';
import type { Episode, EpisodeStep, FreeTextCommand } from '../env/environment.ts';

export interface ExploredEpisode<R extends EpisodeStep> {
  game: Episode<R>;
  /** Before each step (index t = before command t + 1): the listed commands and the free text the state took. */
  admissible: string[][];
  freeText: (FreeTextCommand | null)[];
  /** Per step: the command was the noise draw, not the explorer's own choice. */
  random: boolean[];
  /** Per step of a primed episode: the unprimed explorer's command where the skill made the choice differ; else null. */
  withoutSkill: (string | null)[];
}

/** How an explorer chooses in a state: at random, or deliberately (with the skill's knowledge, or without). */
export interface ExplorerChoice {
  random(admissible: readonly string[], bar: FreeTextCommand | null): string;
  deliberate(admissible: readonly string[], bar: FreeTextCommand | null, primed: boolean): string;
  /** The explorer acts on a skill's knowledge. */
  primed: boolean;
}

/** Plays `game` to its end by the explorer; the noise draw comes first at every step, then the choice's. */
export function exploreEpisode<R extends EpisodeStep>(
  game: Episode<R>,
  rng: Rng,
  noise: number,
  choice: ExplorerChoice,
): ExploredEpisode<R> {
  const admissible: string[][] = [];
  const freeText: (FreeTextCommand | null)[] = [];
  const random: boolean[] = [];
  const withoutSkill: (string | null)[] = [];
  while (!game.done) {
    const commands = game.admissibleCommands();
    const bar = game.freeText();
    admissible.push(commands);
    freeText.push(bar);
    const noisy = rng.float() < noise;
    random.push(noisy);
    const command = noisy ? choice.random(commands, bar) : choice.deliberate(commands, bar, choice.primed);
    const plain = noisy || !choice.primed ? command : choice.deliberate(commands, bar, false);
    withoutSkill.push(plain === command ? null : plain);
    game.step(command);
  }
  return { game, admissible, freeText, random, withoutSkill };
}
