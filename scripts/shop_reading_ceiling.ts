// How much could reading its skill be worth to a shop policy? The teacher check's plays (rl/teacher_check.ts
// teacherPlays: same games, same streams) and more: the policy with its skill in context, where every step the
// skill decides is taken as the primed explorer takes it (shop_explorer.ts explorerCommand: its primed and unprimed
// choices differ) and every other step is the policy's own. That play is a policy that reads each skill perfectly and is
// otherwise itself: the most a skill can add to it without a better player underneath. Prints one table row per
// group of games (all, after a won first episode, after a failed one): none / own / own read perfectly / another
// game's skill read perfectly; and the same two plays (none, own read perfectly) where each option value the policy
// clicks is the instruction's, as a policy that always copies it right would.
// Run: npx tsx --import ./scripts/register-raw.mjs scripts/shop_reading_ceiling.ts CKPT [GAMES] [own|annotator]
import type { Episode } from '../src/env/environment.ts';
import { SHOP } from '../src/env/shop/environment.ts';
import type { ShopScene } from '../src/env/shop/scene.ts';
import type { ShopStepRecord } from '../src/env/shop/game.ts';
import { CpuBackend } from '../src/backend/cpu/cpu_backend.ts';
import { evalConfigOf } from '../src/cli/commands/eval.ts';
import { readCheckpointFile } from '../src/cli/io.ts';
import { rlWorldOf } from '../src/rl/rl_worlds.ts';
import { explorerCommand } from '../src/rl/shop_explorer.ts';
import { NO_SHOP_PRIOR, readInstruction, shopSkillKnowledge } from '../src/rl/shop_knowledge.ts';
import { BUTTONS } from '../src/env/shop/pages.ts';
import { pairedGain, SKILL_WRITERS, teacherPlays, type SkillWriter } from '../src/rl/teacher_check.ts';
import { tokenizerOf } from '../src/text/tokenizer.ts';

const [path, gamesText, writer = 'own'] = process.argv.slice(2);
if (path === undefined || !(SKILL_WRITERS as readonly string[]).includes(writer))
  throw new Error(
    'usage: npx tsx --import ./scripts/register-raw.mjs scripts/shop_reading_ceiling.ts CKPT [GAMES] [own|annotator]',
  );
const games = Number(gamesText ?? 1000);
const world = rlWorldOf(SHOP);
const tok = tokenizerOf(SHOP);
const ck = await readCheckpointFile(path, tok);
const config = evalConfigOf(ck, path, undefined, SHOP);
const backend = new CpuBackend(ck.config, ck.params);
const scenes = world.teacherScenes(games) as ShopScene[];
const env = world.env;
const { first, skills, otherOf, again } = await teacherPlays(
  world,
  backend,
  tok,
  scenes,
  config,
  undefined,
  writer as SkillWriter,
);

const NOT_OPTIONS = new Set(
  [BUTTONS.backToSearch, BUTTONS.prev, BUTTONS.next, BUTTONS.buyNow].map((b) => `click[${b.toLowerCase()}]`),
);
const isOptionClick = (command: string) =>
  command.startsWith('click[') && !NOT_OPTIONS.has(command) && !/^click\[b0[a-z0-9]{8}\]$/.test(command);

/**
 * The world where a game's steps are taken as a better player would: with `skillOf`, every step its skill decides
 * as the primed explorer takes it; with `optionsRight`, every option value the policy clicks replaced by the one
 * the unprimed explorer clicks there (the instruction's), as a policy that always copies the right value would.
 */
function helped(skillOf: readonly (string | null)[], optionsRight: boolean) {
  const skillByScene = new Map(scenes.map((s, i) => [s as object, skillOf[i]]));
  return Object.assign(Object.create(env), {
    episode(scene: ShopScene, maxSteps: number): Episode<ShopStepRecord> {
      const game = env.episode(scene, maxSteps) as Episode<ShopStepRecord>;
      const skill = skillByScene.get(scene);
      const [wanted, prior] = [readInstruction(env.goal(scene)), skill ? shopSkillKnowledge(skill) : NO_SHOP_PRIOR];
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

const otherSkills = skills.map((_, i) => skills[otherOf[i]]);
const arms = {
  none: await again([]),
  own: await again(skills),
  'own, read perfectly': await again(skills, helped(skills, false)),
  "another game's, read perfectly": await again(otherSkills, helped(otherSkills, false)),
  'none, options right': await again([], helped([], true)),
  'own, read perfectly, options right': await again(skills, helped(skills, true)),
};
const firstWon = first.map((t) => t.won);
console.log(
  `${path}, ${writer} skills (${skills.filter((s) => s !== null).length} usable), ${games} teacher-check games; first episodes won ${firstWon.filter(Boolean).length}`,
);
console.log(`| games | n | ${Object.keys(arms).join(' / ')} |`);
console.log('|---|---|---|');
for (const [label, keep] of [
  ['all', () => true],
  ['after a won first episode', (i: number) => firstWon[i]],
  ['after a failed one', (i: number) => !firstWon[i]],
] as const) {
  const ids = scenes.map((_, i) => i).filter(keep);
  const rates = Object.values(arms).map((won) =>
    ((100 * ids.filter((i) => won[i]).length) / Math.max(1, ids.length)).toFixed(1),
  );
  console.log(`| ${label} | ${ids.length} | ${rates.join(' / ')} |`);
}
// The teacher check's own question with its interval (its own_gain): own skill against none, paired by game.
const { mean, ci95 } = pairedGain(arms.none, arms.own);
console.log(
  `own - none: ${(100 * mean).toFixed(1)} points, 95% interval [${(100 * ci95[0]).toFixed(1)}, ${(100 * ci95[1]).toFixed(1)}] (paired by game)`,
);
