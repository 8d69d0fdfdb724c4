// For the property tests of the parsers of outside input (scene JSON, checkpoint files, loss JSON, CLI
// arguments): every input gives a value or an error of the parser's own class whose message is one
// printable line, never another exception. Nothing here measures time, which a loaded machine stretches: the
// generators bound every input's size (nesting 200,000 deep, lists of 50,000 items), so a parser that is
// linear finishes each in milliseconds, and one that hangs or is quadratic on them runs into the test's
// timeout by orders of magnitude.
import { expect } from 'vitest';

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * Runs `parse(input)`; returns 'value' or 'refused', and fails the test when it throws anything but
 * `errorClass`, or when the message spans lines or holds a control character.
 */
export function parsesOrRefuses(parse: () => unknown, errorClass: ErrorClass): 'value' | 'refused' {
  let outcome: 'value' | 'refused' = 'value';
  try {
    parse();
  } catch (err) {
    if (!(err instanceof errorClass)) throw err;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for control characters
    expect(err.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    outcome = 'refused';
  }
  return outcome;
}

/** The same for an async parser. */
export async function parsesOrRefusesAsync(
  parse: () => Promise<unknown>,
  errorClass: ErrorClass,
): Promise<'value' | 'refused'> {
  let outcome: 'value' | 'refused' = 'value';
  try {
    await parse();
  } catch (err) {
    if (!(err instanceof errorClass)) throw err;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for control characters
    expect(err.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    outcome = 'refused';
  }
  return outcome;
}

/** `text` with `edits` applied: each [position, kind, char] deletes, inserts or replaces one character. */
export function mutate(text: string, edits: readonly (readonly [number, number, string])[]): string {
  let s = text;
  for (const [at, kind, c] of edits) {
    const i = s.length === 0 ? 0 : at % s.length;
    if (kind % 3 === 0) s = s.slice(0, i) + s.slice(i + 1);
    else if (kind % 3 === 1) s = s.slice(0, i) + c + s.slice(i);
    else s = s.slice(0, i) + c + s.slice(i + 1);
  }
  return s;
}

/** JSON text of `depth` nested arrays or objects around `inner`. */
export function nested(depth: number, inner = '1', objects = false): string {
  return objects ? '{"a":'.repeat(depth) + inner + '}'.repeat(depth) : '['.repeat(depth) + inner + ']'.repeat(depth);
}
