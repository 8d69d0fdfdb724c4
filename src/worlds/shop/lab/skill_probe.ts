// Does a shop policy read its skill (bench/notes/shop.md, "Does the policy read its skill?")? On held-out games
// (seed 7), the corpus's pairs: an explorer episode, its annotated skill, and a replay by the explorer primed with
// that skill. At each replay step the skill decided (explorer.ts withoutSkill: the unprimed explorer would
// have acted otherwise), the first token where the two commands part is scored under the step's constrained mask
// in three contexts that differ only in the skill block (the shop's training layout):
//   own      the skill the replay acted on;
//   none     no skill;
//   swapped  where the step leaves an item the skill says lacked an option value: that value swapped for another
//            value of the same option that the page offers (the primed explorer would have stayed and bought);
//            elsewhere, another game's skill.
// Per kind of step (leave an item, open one, turn the page, go back, search), after a won or a failed first
// episode: how often the primed command's token is the most probable of those allowed, and its probability
// renormalised over them. A policy that reads the words of its skill leaves an item less often with the swapped
// skill than with its own; one that reacts to the form of a skill alone gives both the same.
// `npm run seed -- probe skill` (src/worlds/shop/lab/probe.ts) runs it.
import type { Backend } from '../../../backend/backend.ts';
import { Rng } from '../../../common/rng.ts';
import { CATEGORIES } from '../env/categories.ts';
import { SHOP } from '../env/environment.ts';
import { CommandTrie } from '../../../text/command_trie.ts';
import { policyContext } from '../../../text/prompts.ts';
import { shopTerms } from '../skills/skill.ts';
import type { Tokenizer } from '../../../text/tokenizer.ts';
import { packBatch, type ScoredSequence } from '../../../rl/batch.ts';
import { episodeText } from '../../../rl/rollout.ts';
import { annotateShop } from '../rl/annotator.ts';
import { runShopExplorer } from '../rl/explorer.ts';
import { shopSkillKnowledge } from '../rl/knowledge.ts';
import { itemPage } from '../rl/observed.ts';
import { WARMSTART_DEFAULTS } from '../../../rl/warmstart.ts';
import { SHOP_FACTS } from '../env/facts.ts';
import type { TrainConfig } from '../../../rl/config.ts';

const HELD_OUT_SEED = 7;
/** The contexts each step is scored in, in the table's order. */
export const PROBE_ARMS = ['own', 'none', 'swapped'] as const;
/** Steps scored per forward. */
const CHUNK = 32;

interface SkillProbe {
  /** The kind of step and the first episode's outcome: "leave an item (value swapped), after a failed episode". */
  kind: string;
  /** One sequence per arm of PROBE_ARMS, scored at the token where the primed and unprimed commands part. */
  sequences: ScoredSequence[];
  /** The primed command's token there, and the tokens the mask allows (at least 2). */
  answer: number;
  allowed: number[];
}

interface ProbeTally {
  kind: string;
  steps: number;
  /** Per arm: the steps whose answer is the most probable allowed token. */
  top: number[];
  /** Per arm: the answer's probability renormalised over the allowed tokens, summed over the steps. */
  probability: number[];
}

/** The skill with the option value it says an item lacked swapped for another value of that option the page offers, or null. */
export function swappedSkill(skill: string, offeredParts: readonly string[]): string | null {
  const lacked = shopSkillKnowledge(skill).mustOffer[0];
  if (!lacked) return null;
  const [name, value] = [lacked[lacked.length - 1], lacked.slice(0, -1).join(' ')];
  const option = CATEGORIES.flatMap((c) => c.options).find(
    (o) => o.name === name && o.values.some((v) => shopTerms(v).join(' ') === value),
  );
  const other = offeredParts
    .filter((p) => option?.values.includes(p))
    .map((p) => shopTerms(p).join(' '))
    .find((v) => v !== value);
  const written = `the ${value} ${name}`;
  return other !== undefined && skill.includes(written) ? skill.replace(written, `the ${other} ${name}`) : null;
}

function kindOf(action: string): string {
  if (action === 'click[< prev]') return 'leave an item';
  if (action === 'click[next >]') return 'turn the page';
  if (action === 'click[back to search]') return 'back to search';
  if (action.startsWith('search[')) return 'search';
  return /^click\[b0/.test(action) ? 'open an item' : 'other';
}

/** The steps a skill decided in `games` held-out games of the tiny shop, each with its three contexts. */
export function skillProbes(tok: Tokenizer, games: number): SkillProbe[] {
  const V = tok.vocabSize;
  const words = Math.ceil(V / 32);
  const train: Readonly<Partial<TrainConfig>> = SHOP_FACTS.trainDefaults;
  const layout = { history: train.history!, maxLen: 512, skillAfterPage: train.skillAfterPage === 1 };
  const fit = { length: (t: string) => tok.encode(t).length, maxTokens: train.maxSkillTokens! };
  const explorer = { maxSteps: train.maxSteps!, noise: WARMSTART_DEFAULTS.noise };
  const rng = new Rng(HELD_OUT_SEED);
  const [explore, primed] = [rng.fork('explorer'), rng.fork('primed')];
  const pairs = Array.from({ length: games }, (_, i) => {
    const scene = SHOP.trainScene(i, HELD_OUT_SEED);
    const first = runShopExplorer(SHOP, scene, explore, explorer);
    const skill = annotateShop(first.game.records, scene.goal, first.game.won, fit);
    const replay = runShopExplorer(SHOP, scene, primed, { ...explorer, prior: shopSkillKnowledge(skill) });
    return { goal: SHOP.goal(scene), won: first.game.won, skill, replay };
  });
  const probes: SkillProbe[] = [];
  pairs.forEach(({ goal, won, skill, replay }, i) => {
    const text = episodeText({ goal, records: replay.game.records });
    const another = pairs[(i + 1) % games].skill;
    replay.withoutSkill.forEach((plain, t) => {
      if (plain === null) return;
      const action = text.steps[t].action;
      const [command, plainCommand] = [tok.encode(action), tok.encode(plain)];
      let at = 0;
      while (at < command.length && command[at] === plainCommand[at]) at++;
      const mask = CommandTrie.fromCommands(tok, replay.admissible[t], replay.freeText[t])
        .commandMasks(command)
        .slice(at * words, (at + 1) * words);
      const allowed = Array.from({ length: V }, (_, id) => id).filter((id) => (mask[id >>> 5] >>> (id & 31)) & 1);
      if (allowed.length < 2) return;
      const page = itemPage(replay.game.records[t]);
      const swapped = action === 'click[< prev]' && page ? swappedSkill(skill, page.optionParts) : null;
      const sequenceWith = (block: string | undefined): ScoredSequence => {
        const context = policyContext(
          tok,
          { ...text, steps: text.steps.slice(0, t) },
          { ...layout, reserve: Math.max(command.length, train.maxCommandTokens!) + 1, skill: block },
        );
        return {
          ids: Int32Array.from([...context, ...command.slice(0, at + 1)]),
          positions: Int32Array.from([context.length + at]),
          masks: mask,
        };
      };
      const kind = `${kindOf(action)}${swapped ? ' (value swapped)' : ''}, after a ${won ? 'won' : 'failed'} episode`;
      probes.push({
        kind,
        sequences: [sequenceWith(skill), sequenceWith(undefined), sequenceWith(swapped ?? another)],
        answer: command[at],
        allowed,
      });
    });
  });
  return probes;
}

/** Scores every probe in its three contexts; the tallies by kind of step, the most frequent first. */
export async function tallyProbes(
  backend: Backend,
  tok: Tokenizer,
  probes: readonly SkillProbe[],
): Promise<ProbeTally[]> {
  const V = tok.vocabSize;
  const tally = new Map<string, ProbeTally>();
  for (const p of probes) {
    if (!tally.has(p.kind)) tally.set(p.kind, { kind: p.kind, steps: 0, top: [0, 0, 0], probability: [0, 0, 0] });
    tally.get(p.kind)!.steps++;
  }
  for (let start = 0; start < probes.length; start += CHUNK) {
    const chunk = probes.slice(start, start + CHUNK);
    for (let arm = 0; arm < PROBE_ARMS.length; arm++) {
      const rows = await backend.scoreRows(
        packBatch(
          chunk.map((p) => p.sequences[arm]),
          tok.padId,
        ),
      );
      chunk.forEach((p, j) => {
        const row = (id: number) => rows[j * V + id];
        const entry = tally.get(p.kind)!;
        const best = p.allowed.reduce((a, b) => (row(b) > row(a) ? b : a));
        const total = p.allowed.reduce((s, id) => s + Math.exp(row(id)), 0);
        entry.top[arm] += best === p.answer ? 1 : 0;
        entry.probability[arm] += Math.exp(row(p.answer)) / total;
      });
    }
  }
  return [...tally.values()].sort((a, b) => b.steps - a.steps);
}
