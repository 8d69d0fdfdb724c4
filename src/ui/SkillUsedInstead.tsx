// What the distillation's teacher read in place of the skill the policy wrote, shown under it in the skill card:
// a sibling's skill, or a part control's part (rl/config.ts SkillPart).
import type { SkillPart } from '../rl/arms.ts';
import type { SkillView } from '../worker/protocol.ts';

const PART_TITLES: Readonly<Record<SkillPart, string>> = {
  crossgame: 'another game’s skill of the same task type (cross-game control)',
  procedure: 'this skill’s procedure, its facts replaced by placeholders or removed (procedure control)',
  facts: 'only the facts this skill states (facts control)',
  empty: 'an empty skill block (empty control)',
  shuffled: 'this skill’s words in a random order (shuffled control)',
  frozen: 'this skill, with the weights the run started from (frozen-teacher control)',
};

/** The heading of what the teacher read instead of the skill written. */
function usedInsteadTitle(part: SkillPart | null): string {
  return `The teacher read ${part ? PART_TITLES[part] : 'a sibling’s skill of the same game (sibling control)'}:`;
}

export function SkillUsedInstead({ used }: { used: NonNullable<SkillView['usedInstead']> }) {
  return (
    <div data-testid="skill-used-instead" data-part={used.part ?? 'sibling'}>
      <p className="muted">{usedInsteadTitle(used.part)}</p>
      <blockquote data-testid="skill-used-text">{used.text || '(empty)'}</blockquote>
    </div>
  );
}
