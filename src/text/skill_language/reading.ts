// Reading a skill's text back into its structure (skeleton.ts): the text is read in pieces (pieces.ts), in lower
// case and without line breaks, by recursive descent with one word of look-ahead. A skill is usable for
// on-policy distillation only when it parses and holds at least the shape's minWords words; its kind is named by
// its first word whether or not the rest parses (../skill_kind.ts). A world reads its own steps and facts with
// a SkillReader; the shape's head, mistakes and rule facts are read here.
import { isWordPiece, splitPieces } from '../pieces.ts';
import { skillKindOfPieces, type SkillKind } from '../skill_kind.ts';
import type { Mistake, RuleFact, Skill, SkillShape } from './skeleton.ts';

/** Why a text is no skill: what the reader expected where. */
class SkillSyntaxError extends Error {}

export class SkillReader {
  i = 0;
  constructor(readonly words: readonly string[]) {}

  peek(offset = 0): string | undefined {
    return this.words[this.i + offset];
  }

  /** Stops the reading: `expected` was not where the reader stands. */
  fail(expected: string): never {
    const got = this.peek();
    throw new SkillSyntaxError(
      got === undefined
        ? `the skill ends where ${expected} was expected`
        : `expected ${expected} ${this.i === 0 ? 'at the start' : `after "${this.words[this.i - 1]}"`}, got "${got}"`,
    );
  }

  accept(word: string): boolean {
    if (this.peek() !== word) return false;
    this.i++;
    return true;
  }

  expect(word: string): void {
    if (!this.accept(word)) this.fail(`"${word}"`);
  }

  /** One of several words, which it returns. */
  oneOf<T extends string>(words: readonly T[]): T {
    const w = this.peek();
    if (!words.includes(w as T)) this.fail(words.map((x) => `"${x}"`).join(' or '));
    this.i++;
    return w as T;
  }

  /** A run of one or more words that `member` takes, `joiner` kept only between two of them ("x - large"). */
  run(member: (word: string) => boolean, expected: string, joiner?: string): string[] {
    if (!member(this.peek() ?? '')) this.fail(expected);
    const out = [this.words[this.i++]];
    for (;;) {
      if (member(this.peek() ?? '')) out.push(this.words[this.i++]);
      else if (joiner !== undefined && this.peek() === joiner && member(this.peek(1) ?? ''))
        out.push(this.words[this.i++], this.words[this.i++]);
      else return out;
    }
  }
}

/** How a world reads its steps, its own facts and what a mistake was done instead of. */
export interface SkillReading<A, F, O> {
  readAction(r: SkillReader, gerund: boolean): A;
  /** A fact of the world's own where one starts, else undefined, having read nothing. */
  readOwnFact(r: SkillReader): F | undefined;
  /** Whether a step (imperative) starts where the reader stands: a rule fact ("STEP first"). */
  startsStep(r: SkillReader): boolean;
  readOf(r: SkillReader): O;
  /** What a fact may start with, for the message when none does. */
  readonly factExpected: string;
}

function readMistake<A, O, H extends string>(r: SkillReader, shape: SkillShape<H>, g: SkillReading<A, unknown, O>) {
  if (r.accept('forgetting')) {
    r.expect('to');
    return { kind: 'forgetting', action: g.readAction(r, false) } as const;
  }
  if (r.accept('invalid')) {
    r.expect(shape.invalid);
    return { kind: 'invalid' } as const;
  }
  if (r.accept('running')) {
    for (const w of ['out', 'of', 'steps']) r.expect(w);
    return { kind: 'steps' } as const;
  }
  const action = g.readAction(r, true);
  // biome-ignore lint/suspicious/noThenProperty: the grammar's second action, never awaited
  if (r.accept('before')) return { kind: 'before', action, then: g.readAction(r, true) } as const;
  if (r.accept('instead')) {
    r.expect('of');
    return { kind: 'instead', action, of: g.readOf(r) } as const;
  }
  for (const how of shape.how) if (r.accept(how)) return { kind: 'doing', action, how } as const;
  return { kind: 'doing', action } as const;
}

function readFact<A, F, O>(r: SkillReader, g: SkillReading<A, F, O>): F | RuleFact<A> {
  if (r.accept('nothing')) {
    r.expect('happens');
    return r.accept('after') ? { kind: 'nothing', after: g.readAction(r, true) } : { kind: 'nothing' };
  }
  const own = g.readOwnFact(r);
  if (own !== undefined) return own;
  if (g.startsStep(r)) {
    const action = g.readAction(r, false);
    // biome-ignore lint/suspicious/noThenProperty: the grammar's second action, never awaited
    if (r.accept('before')) return { kind: 'order', action, then: g.readAction(r, true) };
    r.expect('first');
    return { kind: 'first', action };
  }
  return r.fail(g.factExpected);
}

/** A whole skill in the shape, read with the world's steps and facts. */
function readSkill<A, F, O, H extends string>(
  r: SkillReader,
  shape: SkillShape<H>,
  g: SkillReading<A, F, O>,
): Skill<A, F | RuleFact<A>, Mistake<A, O, H>> {
  let skill: Skill<A, F | RuleFact<A>, Mistake<A, O, H>>;
  if (r.accept('workflow')) {
    r.expect(':');
    const actions = [g.readAction(r, false)];
    while (r.accept(',')) actions.push(g.readAction(r, false));
    skill = { kind: 'workflow', actions, facts: [] };
  } else if (r.accept('avoid')) {
    r.expect(':');
    const mistake: Mistake<A, O, H> = readMistake(r, shape, g);
    const signs: (F | RuleFact<A>)[] = [];
    if (shape.signsRequired) {
      r.expect(';');
      do signs.push(readFact(r, g));
      while (r.accept(';'));
    } else while (r.accept(';')) signs.push(readFact(r, g));
    skill = { kind: 'avoid', mistake, signs, facts: [] };
  } else {
    return r.fail('"workflow" or "avoid"');
  }
  r.expect('.');
  while (r.peek() !== undefined) {
    skill.facts.push(readFact(r, g));
    r.expect('.');
  }
  return skill;
}

/** A skill text checked: whether it is usable, the kind its first word names, why not, and its structure. */
export interface SkillCheck<S> {
  /** True when the skill is usable for on-policy distillation. */
  ok: boolean;
  /** The kind named by the first word, when there is one. */
  kind: SkillKind | null;
  /** Why the skill is unusable; empty when ok. */
  reason: string;
  skill: S | null;
}

/** Parses and validates a skill text: `read` must read it whole, and it must hold at least `minWords` words. */
function parseSkillText<S>(text: string, minWords: number, read: (r: SkillReader) => S): SkillCheck<S> {
  const words = splitPieces(text.toLowerCase()).filter((p) => p !== '\n');
  const kind = skillKindOfPieces(words);
  const count = words.filter(isWordPiece).length;
  if (count < minWords)
    return { ok: false, kind, reason: `too short: ${count} words, at least ${minWords} needed`, skill: null };
  try {
    return { ok: true, kind, reason: '', skill: read(new SkillReader(words)) };
  } catch (err) {
    if (err instanceof SkillSyntaxError) return { ok: false, kind, reason: err.message, skill: null };
    throw err;
  }
}

/** A world's skill parser: a text read in the world's shape, its own steps and facts read by `reading`. */
export function skillParser<A, F, O, H extends string>(
  shape: SkillShape<H>,
  reading: SkillReading<A, F, O>,
): (text: string) => SkillCheck<Skill<A, F | RuleFact<A>, Mistake<A, O, H>>> {
  return (text) => parseSkillText(text, shape.minWords, (r) => readSkill(r, shape, reading));
}
