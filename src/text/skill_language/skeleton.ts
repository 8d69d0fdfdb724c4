// The shape every world's skills share: what the analyzer writes after reading a finished trajectory. A success
// gives a workflow (the steps that worked), a failure avoidance rules (the core mistake and its warning signs);
// both may add facts the trajectory showed. A world fills the shape with its steps, its own facts and its words:
//
//   skill      := workflow | avoidance
//   workflow   := "workflow" ":" step ("," step)* "." (fact ".")*
//   avoidance  := "avoid" ":" mistake (";" fact)+ "." (fact ".")*     (";" fact)* where signs are optional
//   mistake    := gerund [HOW | "before" gerund | "instead" "of" OF]   HOW: the world's ("twice", "again")
//               | "forgetting" "to" step | "invalid" INVALID | "running" "out" "of" "steps"
//   fact       := a fact of the world's own
//               | "nothing" "happens" ["after" gerund]                  a command that did nothing
//               | step "first" | step "before" gerund                   a decision rule; the order that works
//
// `gerund` is a step with its verb in the -ing form. This file holds the structures, the formatter (words
// joined with the spacing of pieces.ts) and the grammar over symbols (skillRx, which the decoder's automaton is
// built from); reading.ts reads a text back, parts.ts takes a skill apart. The kinds "nothing", "first" and
// "order" are the shared facts' (RuleFact): a world's own facts use other kinds.
import { joinPieces } from '../pieces.ts';
import { alt, opt, plus, type Rx, seq, star } from './automaton.ts';

/** What a world's skills fill the shape with, besides their steps and facts. */
export interface SkillShape<H extends string = never> {
  /** How messages name the skills ("skill", "shop skill"). */
  readonly name: string;
  /** The words (word pieces) a usable skill holds at least. */
  readonly minWords: number;
  /** What a workflow's parts are called in messages ("action", "step"). */
  readonly step: string;
  /** The word after "invalid" ("commands", "actions"). */
  readonly invalid: string;
  /** Whether an avoidance rule needs at least one warning sign. */
  readonly signsRequired: boolean;
  /** The words that may follow a mistake's gerund to say it was done again (none: []). */
  readonly how: readonly H[];
}

/** A skill over a world's steps A and facts F (its own and the rule facts) and mistakes M. */
export type Skill<A, F, M> =
  | { kind: 'workflow'; actions: A[]; facts: F[] }
  | { kind: 'avoid'; mistake: M; signs: F[]; facts: F[] };

/** A mistake over a world's steps A, what a step may be done instead of (O) and its HOW words (H). */
export type Mistake<A, O, H extends string = never> =
  | { kind: 'doing'; action: A; how?: H }
  | { kind: 'before'; action: A; then: A }
  | { kind: 'instead'; action: A; of: O }
  | { kind: 'forgetting'; action: A }
  | { kind: 'invalid' }
  | { kind: 'steps' };

/** The facts every world has: a command that did nothing, a decision rule, an order that works. */
export type RuleFact<A> =
  | { kind: 'nothing'; after?: A }
  | { kind: 'first'; action: A }
  | { kind: 'order'; action: A; then: A };

const RULE_KINDS: ReadonlySet<string> = new Set(['nothing', 'first', 'order']);

/** Whether a fact is one of the rule facts (not a fact of the world's own). */
export function isRuleFact<A>(f: { kind: string }): f is RuleFact<A> {
  return RULE_KINDS.has(f.kind);
}

/** How a world writes its steps, its facts (the rule facts with ruleFactWords) and what a mistake was done instead of. */
export interface SkillWriting<A, F, O> {
  actionWords(a: A, gerund: boolean): string[];
  factWords(f: F): string[];
  ofWords(o: O): string[];
}

/** The words of a rule fact. */
export function ruleFactWords<A>(f: RuleFact<A>, actionWords: (a: A, gerund: boolean) => string[]): string[] {
  switch (f.kind) {
    case 'nothing':
      return ['nothing', 'happens', ...(f.after ? ['after', ...actionWords(f.after, true)] : [])];
    case 'first':
      return [...actionWords(f.action, false), 'first'];
    case 'order':
      return [...actionWords(f.action, false), 'before', ...actionWords(f.then, true)];
  }
}

function mistakeWords<A, O, H extends string>(
  m: Mistake<A, O, H>,
  shape: SkillShape<H>,
  w: SkillWriting<A, unknown, O>,
) {
  switch (m.kind) {
    case 'doing':
      return [...w.actionWords(m.action, true), ...(m.how ? [m.how] : [])];
    case 'before':
      return [...w.actionWords(m.action, true), 'before', ...w.actionWords(m.then, true)];
    case 'instead':
      return [...w.actionWords(m.action, true), 'instead', 'of', ...w.ofWords(m.of)];
    case 'forgetting':
      return ['forgetting', 'to', ...w.actionWords(m.action, false)];
    case 'invalid':
      return ['invalid', shape.invalid];
    case 'steps':
      return ['running', 'out', 'of', 'steps'];
  }
}

/**
 * The text of a skill (its words spaced as pieces.ts joins). A part (parts.ts) may be an avoidance rule with no
 * warning sign left ("avoid: MISTAKE.") where the shape needs one.
 */
export function skillText<A, F, O, H extends string>(
  s: Skill<A, F, Mistake<A, O, H>>,
  shape: SkillShape<H>,
  w: SkillWriting<A, F, O>,
  part = false,
): string {
  const out: string[] = [];
  if (s.kind === 'workflow') {
    if (s.actions.length === 0) throw new RangeError(`a workflow needs at least one ${shape.step}`);
    out.push('workflow', ':');
    s.actions.forEach((a, i) => {
      out.push(...(i > 0 ? [','] : []), ...w.actionWords(a, false));
    });
  } else {
    if (shape.signsRequired && !part && s.signs.length === 0)
      throw new RangeError('an avoidance rule needs at least one warning sign');
    out.push('avoid', ':', ...mistakeWords(s.mistake, shape, w));
    for (const f of s.signs) out.push(';', ...w.factWords(f));
  }
  out.push('.');
  for (const f of s.facts) out.push(...w.factWords(f), '.');
  return joinPieces(out);
}

/** Fact sentences, each closed by a period, with no head: a skill's facts alone (parts.ts). */
export function factsText<F>(facts: readonly F[], factWords: (f: F) => string[]): string {
  return joinPieces(facts.flatMap((f) => [...factWords(f), '.']));
}

/** A world's productions in the shape: its steps (imperative and gerund), its own facts, what OF is. */
export interface SkillProductions {
  step(gerund: boolean): Rx;
  readonly of: Rx;
  readonly facts: readonly Rx[];
}

/** The grammar of a world's skills over symbols (automaton.ts), as its parser reads them. */
export function skillRx<H extends string>(shape: SkillShape<H>, p: SkillProductions): Rx {
  const mistake = alt(
    seq(p.step(true), opt(alt(...shape.how, seq('before', p.step(true)), seq('instead', 'of', p.of)))),
    seq('forgetting', 'to', p.step(false)),
    seq('invalid', shape.invalid),
    seq('running', 'out', 'of', 'steps'),
  );
  const fact = alt(
    ...p.facts,
    seq('nothing', 'happens', opt(seq('after', p.step(true)))),
    seq(p.step(false), alt('first', seq('before', p.step(true)))),
  );
  const sign = seq(';', fact);
  return seq(
    alt(
      seq('workflow', ':', p.step(false), star(seq(',', p.step(false)))),
      seq('avoid', ':', mistake, shape.signsRequired ? plus(sign) : star(sign)),
    ),
    '.',
    star(seq(fact, '.')),
  );
}
