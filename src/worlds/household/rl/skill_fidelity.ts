// How faithful a hindsight skill is to the trajectory it is used with. The rule-based annotator (the warm
// start's teacher) writes the reference skill of the trajectory from its facts; the measure compares the
// entity mentions of the two skills (object and receptacle types, each with its instance number when the skill
// gives one: "the sinkbasin 1", "the mug") as multisets, by F1. Grammar words are left out on purpose: any
// skill that parses shares most of them with the reference, whatever it says about the trajectory.
//   1: the skill names exactly the objects and places the annotator names; 0: none of them.
// A skill that names places the trajectory never searched, or repeats one place three times, scores low; a
// skill of another trajectory of the same task (seed-sibling) scores what two trajectories share by chance.
import { isObjectType, isReceptacleType, MAX_INSTANCE_NUMBER } from '../env/knowledge.ts';
import type { Task } from '../env/scene.ts';
import type { StepRecord } from '../env/game.ts';
import type { Tokenizer } from '../../../text/tokenizer.ts';
import { annotate } from './annotator.ts';
import { mentionF1 } from '../../../rl/mention_f1.ts';
import { WARMSTART_DEFAULTS } from '../../../rl/warmstart.ts';

/** The entity mentions of a skill, in order: "sinkbasin 1", "mug", ... */
export function skillMentions(text: string): string[] {
  const words = text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const out: string[] = [];
  words.forEach((w, i) => {
    if (!isObjectType(w) && !isReceptacleType(w)) return;
    const next = Number(words[i + 1]);
    out.push(Number.isInteger(next) && next >= 1 && next <= MAX_INSTANCE_NUMBER ? `${w} ${next}` : w);
  });
  return out;
}

/** The annotator's skill of a finished trajectory, trimmed to the token budget the warm start taught. */
export function referenceSkill(
  records: readonly StepRecord[],
  task: Task,
  won: boolean,
  tok: Tokenizer,
  maxSkillTokens: number,
): string {
  const maxTokens = Math.min(WARMSTART_DEFAULTS.annotatedSkillTokens, maxSkillTokens);
  return annotate(records, task, won, { length: (s) => tok.encode(s).length, maxTokens });
}

/** Fidelity of `skill` to the trajectory (records, task, outcome): mention F1 against its reference skill. */
export function skillFidelity(
  skill: string,
  records: readonly StepRecord[],
  task: Task,
  won: boolean,
  tok: Tokenizer,
  maxSkillTokens: number,
): number {
  return mentionF1(skillMentions(skill), skillMentions(referenceSkill(records, task, won, tok, maxSkillTokens)));
}
