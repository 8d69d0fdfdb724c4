// The counter world's expert: one step toward the target at a time.
import { COMMANDS } from './vocabulary.ts';

/** The commands from a counter at `value` to `target`. */
export function counterExpertPlan(value: number, target: number): string[] {
  const command = target > value ? COMMANDS.add : COMMANDS.take;
  return Array.from({ length: Math.abs(target - value) }, () => command);
}
