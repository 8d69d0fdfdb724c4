// How much could reading its skill be worth to a shop policy (bench/notes/shop.md, "What reading a skill could be
// worth")? The teacher check's plays (teacherPlays: same games, same streams, so its no-skill and own-skill plays
// are the check's) and more: the policy with a skill in context where every step the skill decides is taken as
// the primed explorer takes it (explorer.ts explorerCommand: its primed and unprimed choices differ) and
// every other step is the policy's own. That play is a policy that reads each skill perfectly and is otherwise
// itself: the most a skill can add to it without a better player underneath. Two more plays (none, own read
// perfectly) click the instruction's option value wherever the policy clicks a value, as a policy whose copy of
// it never fails would. `npm run seed -- probe reading-ceiling` (src/worlds/shop/lab/probe.ts) runs it.
import type { Backend } from '../../../backend/backend.ts';
import type { Episode } from '../../../env/environment.ts';
import type { ShopStepRecord } from '../env/game.ts';
import { BUTTONS } from '../env/buttons.ts';
import type { ShopScene } from '../env/scene.ts';
import type { Tokenizer } from '../../../text/tokenizer.ts';
import { explorerCommand } from '../rl/explorer.ts';
import { NO_SHOP_PRIOR, readInstruction, shopSkillKnowledge } from '../rl/knowledge.ts';
import { shopRl, type ShopRl } from '../rl/adapter.ts';
import { pairedGain, teacherPlays, type AnalyzerConfig, type SkillWriter } from '../../../rl/teacher_check.ts';
import type { EvalConfig } from '../../../rl/evaluate.ts';

/** The plays, in the order of the table's columns. */
export const CEILING_ARMS = [
  'none',
  'own',
  'own, read perfectly',
  "another game's, read perfectly",
  'none, options right',
  'own, read perfectly, options right',
] as const;

interface CeilingRow {
  /** Which games: all, after a won first episode, after a failed one. */
  label: string;
  games: number;
  /** Success of each play of CEILING_ARMS on those games, in [0, 1]. */
  success: number[];
}

interface ReadingCeiling {
  /** Games whose skill is usable. */
  usable: number;
  /** First episodes won. */
  firstWon: number;
  rows: CeilingRow[];
  /** own - none, paired by game, with its 95% interval (the teacher check's own_gain). */
  gain: { mean: number; ci95: [number, number] };
}

/** Every button's click: the page buttons, the item's tabs and Buy Now. */
const NOT_OPTIONS = new Set(Object.values(BUTTONS).map((b) => `click[${b.toLowerCase()}]`));

/** Whether a command clicks an option value: a click that is no button and no item id. */
export function isOptionClick(command: string): boolean {
  return command.startsWith('click[') && !NOT_OPTIONS.has(command) && !/^click\[b0[a-z0-9]{8}\]$/.test(command);
}

/**
 * The world where a game's steps are taken as a better player would: with a game's skill (`skillOf`, by scene),
 * every step the skill decides as the primed explorer takes it; with `optionsRight`, every option value the
 * policy clicks replaced by the one the unprimed explorer clicks there (the instruction's).
 */
function helpedWorld(
  env: ShopRl['env'],
  scenes: readonly ShopScene[],
  skillOf: readonly (string | null)[],
  optionsRight: boolean,
): ShopRl['env'] {
  const skillByScene = new Map(scenes.map((s, i) => [s as object, skillOf[i]]));
  return Object.assign(Object.create(env), {
    episode(scene: ShopScene, maxSteps: number): Episode<ShopStepRecord> {
      const game = env.episode(scene, maxSteps);
      const skill = skillByScene.get(scene);
      const wanted = readInstruction(env.goal(scene));
      const prior = skill ? shopSkillKnowledge(skill) : NO_SHOP_PRIOR;
      const better = (command: string) => {
        const plain = explorerCommand(game, wanted);
        if (prior !== NO_SHOP_PRIOR) {
          const primed = explorerCommand(game, wanted, prior);
          if (primed !== plain) return primed;
        }
        return optionsRight && isOptionClick(command) && isOptionClick(plain) ? plain : command;
      };
      return new Proxy(game, {
        get(target, key) {
          if (key === 'step') return (command: string) => target.step(better(command));
          const value = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    },
  });
}

/** On the teacher check's first `games` games of the tiny shop: its plays and four helped by a better player. */
export async function readingCeiling(
  backend: Backend,
  tok: Tokenizer,
  games: number,
  config: EvalConfig & AnalyzerConfig,
  writer: SkillWriter,
  onEpisode?: () => void,
): Promise<ReadingCeiling> {
  const world = shopRl();
  const scenes = world.teacherScenes(games);
  const { first, skills, otherOf, again } = await teacherPlays(world, backend, tok, scenes, config, onEpisode, writer);
  const otherSkills = skills.map((_, i) => skills[otherOf[i]]);
  const helped = (skillOf: readonly (string | null)[], optionsRight: boolean) =>
    helpedWorld(world.env, scenes, skillOf, optionsRight);
  const plays = [
    await again([]),
    await again(skills),
    await again(skills, helped(skills, false)),
    await again(otherSkills, helped(otherSkills, false)),
    await again([], helped([], true)),
    await again(skills, helped(skills, true)),
  ];
  const firstWon = first.map((t) => t.won);
  const groups: [string, (i: number) => boolean][] = [
    ['all', () => true],
    ['after a won first episode', (i) => firstWon[i]],
    ['after a failed one', (i) => !firstWon[i]],
  ];
  const rows = groups.map(([label, keep]) => {
    const ids = scenes.map((_, i) => i).filter(keep);
    const success = plays.map((won) => ids.filter((i) => won[i]).length / Math.max(1, ids.length));
    return { label, games: ids.length, success };
  });
  return {
    usable: skills.filter((s) => s !== null).length,
    firstWon: firstWon.filter(Boolean).length,
    rows,
    gain: pairedGain(plays[0], plays[1]),
  };
}
