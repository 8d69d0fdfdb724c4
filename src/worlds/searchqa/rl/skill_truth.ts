// Whether a search-QA skill's claims about its game are true, against the scene's encyclopedia and gold answer
// (the household's place claims are in skill_truth.ts, the shop's goal claims in skill_truth.ts). A skill
// claims two kinds of thing:
//   a fact ("Marno Nular was born in 1847 in Thamia", "the capital of Thamia is Zaemdrei"): true when the
//     encyclopedia's passage on that entity and relation says exactly that;
//   an answer: a workflow's "answer X", "instead of answering X", "forgetting to answer X" and a rule's
//     "answer X first" claim X is the answer; the first half of a mistake ("answering X instead of ...",
//     "answering X before ...") claims X is not. True when the claim agrees with the gold answer.
// Searches claim nothing (any search may show a fact), nor do steps by role (the procedure's).
import { exactMatch } from '../env/answer.ts';
import { encyclopediaOf } from '../env/encyclopedia.ts';
import type { QaScene } from '../env/scene.ts';
import type { QaAction, QaFact, QaSkill } from '../skills/skill.ts';
import { spellName } from '../skills/skill.ts';
import { parseQaSkill } from '../skills/parser.ts';
import { pageFactOf } from './knowledge.ts';
import { factKey, readPassage } from './observed.ts';

type Claim = { about: 'fact'; fact: QaFact } | { about: 'answer'; text: string; right: boolean };

/** The claims of a parsed skill, in the order of its text. */
function claimsOf(skill: QaSkill): Claim[] {
  const claims: Claim[] = [];
  const answer = (a: QaAction, right: boolean) => {
    if (a.verb !== 'answer' || 'role' in a.value) return;
    claims.push({ about: 'answer', text: 'year' in a.value ? a.value.year : spellName(a.value.names), right });
  };
  const fact = (f: QaFact) => {
    if (f.kind === 'first') answer(f.action, true);
    else if (f.kind === 'order') answer(f.action, true);
    else if (f.kind !== 'nothing') claims.push({ about: 'fact', fact: f });
  };
  if (skill.kind === 'workflow') for (const a of skill.actions) answer(a, true);
  else {
    const m = skill.mistake;
    if (m.kind === 'doing' || m.kind === 'before') answer(m.action, false);
    if (m.kind === 'instead') {
      answer(m.action, false);
      answer(m.of, true);
    }
    if (m.kind === 'forgetting') answer(m.action, true);
    skill.signs.forEach(fact);
  }
  skill.facts.forEach(fact);
  return claims;
}

function holds(claim: Claim, scene: QaScene): boolean {
  if (claim.about === 'answer') return exactMatch(claim.text, scene.question.answer) === claim.right;
  const stated = pageFactOf(claim.fact)!;
  const passage = encyclopediaOf(scene.encyclopedia).passageOf.get(factKey(stated.entity, stated.relation));
  const printed = passage ? readPassage(passage.text) : null;
  const slots = Object.entries(stated.slots);
  return (
    printed !== null &&
    slots.length === Object.keys(printed.slots).length &&
    slots.every(([k, v]) => printed.slots[k] === v)
  );
}

/** Claims of a skill text about its game that hold and that do not; a skill that does not parse claims nothing. */
export function qaSkillTruth(text: string, scene: QaScene): { trueClaims: number; falseClaims: number } {
  const skill = parseQaSkill(text).skill;
  const claims = skill === null ? [] : claimsOf(skill);
  const trueClaims = claims.filter((c) => holds(c, scene)).length;
  return { trueClaims, falseClaims: claims.length - trueClaims };
}

/** Over skills and their games: the shares that state a true claim and a false one; null when there is none. */
export function qaTruthShares(
  skills: readonly { text: string; scene: QaScene }[],
): { placeTrue: number; placeFalse: number } | null {
  if (skills.length === 0) return null;
  const truths = skills.map((s) => qaSkillTruth(s.text, s.scene));
  return {
    placeTrue: truths.filter((t) => t.trueClaims > 0).length / skills.length,
    placeFalse: truths.filter((t) => t.falseClaims > 0).length / skills.length,
  };
}
