// What a counter trajectory shows its readers (the annotator, the explorer, the fidelity measure): the target its
// task line asks for, the values the counter showed, and the moves that changed it.
import type { CounterStepRecord } from '../env/game.ts';
import { COMMANDS, targetOf } from '../env/vocabulary.ts';
import type { CounterVerb } from '../skills/skill.ts';

/** The target of a task line; a text that is none is refused. */
export function readTarget(goal: string): number {
  const target = targetOf(goal);
  if (target === null) throw new RangeError(`not a counter task: ${JSON.stringify(goal)}`);
  return target;
}

/** The value the counter shows after the last step. */
export const shownValue = (records: readonly CounterStepRecord[]): number => records[records.length - 1].value;

/** The verb of a command the world took, or null for one that did nothing. */
export function moveOf(record: CounterStepRecord): CounterVerb | null {
  if (record.step === 0 || !record.valid) return null;
  return record.action === COMMANDS.add ? 'add' : 'take';
}
