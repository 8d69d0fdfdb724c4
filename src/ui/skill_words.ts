// How the page words a skill's two checks apart: well formed (it parses under its world's grammar and is long
// enough, so distillation can use it) and true (the world's truth test of its claims against its own game,
// worker/views.ts). A well-formed skill may say false things; the page never lets one word stand for the other.
import type { SkillTruth } from '../worker/protocol.ts';

/** What the truth test found, in words, and how it reads: true, false (in part or whole), or nothing checked. */
export function truthWords(truth: SkillTruth): { text: string; tone: 'ok' | 'bad' | 'muted' } {
  if (truth.statesFalse)
    return { text: truth.statesTrue ? 'partly false about its game' : 'false about its game', tone: 'bad' };
  if (truth.statesTrue) return { text: 'true of its game', tone: 'ok' };
  return { text: 'claims nothing its world checks', tone: 'muted' };
}

/** The data attribute the e2e tests read: the truth test's finding in one word. */
export function truthValue(truth: SkillTruth): 'true' | 'false' | 'mixed' | 'none' {
  if (truth.statesFalse) return truth.statesTrue ? 'mixed' : 'false';
  return truth.statesTrue ? 'true' : 'none';
}

export const TRUTH_TITLE =
  'the world’s truth test: each claim the skill makes about its game (where an object was, a fact, an answer) checked against the game itself';
