// The counter world's rule-based annotator (faithful hindsight): a won game's workflow is the expert's moves from
// its start, a lost one's avoidance rule names the move away from the target, else the refused commands, else
// the step budget; both state the goal. A skill over the token budget loses its goal, then its last steps.
import type { CounterStepRecord } from '../env/game.ts';
import { NUMBER_WORDS } from '../env/vocabulary.ts';
import { type CounterFact, type CounterSkill, type CounterVerb, formatCounterSkill } from '../skills/skill.ts';
import { moveOf, readTarget } from './observed.ts';

interface SkillFit {
  length(text: string): number;
  maxTokens: number;
}

function skillOf(records: readonly CounterStepRecord[], target: number, won: boolean): CounterSkill {
  const start = records[0].value;
  const facts: CounterFact[] = [{ kind: 'goal', value: NUMBER_WORDS[target] }];
  const toward: CounterVerb = target > start ? 'add' : 'take';
  if (won) {
    const actions = Array.from({ length: Math.abs(target - start) }, () => ({ verb: toward }));
    return { kind: 'workflow', actions, facts };
  }
  const away: CounterVerb = toward === 'add' ? 'take' : 'add';
  const moves = records.map(moveOf);
  const mistake = moves.includes(away)
    ? ({ kind: 'doing', action: { verb: away } } as const)
    : records.some((r) => r.step > 0 && !r.valid)
      ? ({ kind: 'invalid' } as const)
      : ({ kind: 'steps' } as const);
  return { kind: 'avoid', mistake, signs: [], facts };
}

/** The hindsight skill of an episode, within `fit.maxTokens` tokens. */
export function annotateCounter(
  records: readonly CounterStepRecord[],
  goal: string,
  won: boolean,
  fit: SkillFit,
): string {
  const skill = skillOf(records, readTarget(goal), won);
  let text = formatCounterSkill(skill);
  if (fit.length(text) <= fit.maxTokens) return text;
  skill.facts = [];
  text = formatCounterSkill(skill);
  while (fit.length(text) > fit.maxTokens && skill.kind === 'workflow' && skill.actions.length > 1) {
    skill.actions.pop();
    text = formatCounterSkill(skill);
  }
  return text;
}
