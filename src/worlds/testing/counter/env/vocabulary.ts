// Every text of the counter world: the counter's readings, the task sentence, the two commands and the
// refusal. The numbers are words ("three"), so that each is one token of the world's vocabulary.

/** The counter's values as the world writes them; the counter holds 0 to the largest of them. */
export const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five'] as const;
export type NumberWord = (typeof NUMBER_WORDS)[number];

/** The highest value of the counter. */
export const LARGEST = NUMBER_WORDS.length - 1;

export const COMMANDS = { add: 'add one', take: 'take one' } as const;

/** What a command that cannot change the counter prints (a take at zero, an add at the top, any other text). */
export const NOTHING_HAPPENS = 'Nothing happens.';

export const shows = (value: number): string => `The counter shows ${NUMBER_WORDS[value]}.`;

/** The task sentence of a game whose counter must reach `target`. */
export const goalOf = (target: number): string => `make the counter show ${NUMBER_WORDS[target]}`;

/** The target of a task sentence, or null for a text that is none. */
export function targetOf(goal: string): number | null {
  const target = NUMBER_WORDS.findIndex((_, n) => goalOf(n) === goal);
  return target < 0 ? null : target;
}

/** Every text the world prints or accepts (Environment.texts). */
export function counterTexts(): string[] {
  return [...NUMBER_WORDS.flatMap((_, n) => [shows(n), goalOf(n)]), NOTHING_HAPPENS, ...Object.values(COMMANDS)];
}
