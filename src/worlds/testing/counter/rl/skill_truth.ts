// The counter world's truth test of skills: a skill states a true fact when its goal is the game's target, a
// false one when it names another.
import type { CounterScene } from '../env/scene.ts';
import { NUMBER_WORDS } from '../env/vocabulary.ts';
import { parseCounterSkill } from '../skills/parser.ts';

/** Over skills and their games: the shares that state the right goal, and a wrong one; null for none. */
export function counterTruthShares(
  skills: readonly { text: string; scene: CounterScene }[],
): { placeTrue: number; placeFalse: number } | null {
  if (skills.length === 0) return null;
  let right = 0;
  let wrong = 0;
  for (const { text, scene } of skills) {
    const { skill } = parseCounterSkill(text);
    if (skill === null) continue;
    const stated = [...skill.facts, ...(skill.kind === 'avoid' ? skill.signs : [])].flatMap((f) =>
      f.kind === 'goal' ? [f.value] : [],
    );
    if (stated.includes(NUMBER_WORDS[scene.target])) right++;
    if (stated.some((v) => v !== NUMBER_WORDS[scene.target])) wrong++;
  }
  return { placeTrue: right / skills.length, placeFalse: wrong / skills.length };
}
