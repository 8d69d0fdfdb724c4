// Parts of a skill, for the controls that give the teacher a part of the trajectory's own skill
// (docs/seed-loss.md, "Part controls"). Each reads the skill into its structure, keeps one part and writes it
// back in the grammar's words:
// - the procedure: every step as the world writes it without this game's instances (its procedureAction), the
//   world's own facts removed; the steps, their order ("take it first", "choose the this before buying"), the
//   mistake and "nothing happens after ..." stay. An avoidance rule may be left with no warning sign.
// - the facts: the world's own fact sentences and those its steps state when done (its actionFacts), as the
//   grammar writes them, each once, in the skill's order, with no head and no procedure. A step that did nothing
//   ("nothing happens after ...") or was never taken ("forgetting to ...") states nothing; a skill that states no
//   fact gives "".
import { isRuleFact, type Mistake, type RuleFact, type Skill } from './skeleton.ts';

/** What a world gives to take its skills apart. */
export interface SkillParting<A, F, O, H extends string> {
  /** How messages name the skills ("skill", "shop skill"). */
  readonly name: string;
  parse(text: string): { skill: Skill<A, F, Mistake<A, O, H>> | null; reason: string };
  /** The text of a skill, an avoidance rule with no warning sign allowed. */
  formatPart(s: Skill<A, F, Mistake<A, O, H>>): string;
  /** The text of fact sentences. */
  formatFacts(facts: readonly F[]): string;
  /** A step as the procedure writes it: this game's instances gone. */
  procedureAction(a: A): A;
  procedureOf(o: O): O;
  /** The facts a step states about this game, when it was done. */
  actionFacts(a: A): F[];
}

/** A world's two part transforms: the procedure and the facts of a skill that parses (else a RangeError). */
export function skillParts<A, F extends { kind: string }, O, H extends string>(
  p: SkillParting<A, F, O, H>,
): { procedure(text: string): string; facts(text: string): string } {
  const parsed = (text: string) => {
    const { skill, reason } = p.parse(text);
    if (!skill) throw new RangeError(`the ${p.name} does not parse (${reason}): ${JSON.stringify(text)}`);
    return skill;
  };
  const action = p.procedureAction;
  const procedureMistake = (m: Mistake<A, O, H>): Mistake<A, O, H> => {
    switch (m.kind) {
      case 'doing':
        return { ...m, action: action(m.action) };
      case 'before':
        // biome-ignore lint/suspicious/noThenProperty: the grammar's second action, never awaited
        return { kind: 'before', action: action(m.action), then: action(m.then) };
      case 'instead':
        return { kind: 'instead', action: action(m.action), of: p.procedureOf(m.of) };
      case 'forgetting':
        return { kind: 'forgetting', action: action(m.action) };
      case 'invalid':
      case 'steps':
        return m;
    }
  };
  /** A fact sentence of the procedure (a rule fact), or null for a fact of this game. */
  const procedureFact = (f: F): F | null => {
    if (!isRuleFact<A>(f)) return null;
    const rule: RuleFact<A> = f;
    switch (rule.kind) {
      case 'nothing':
        return (rule.after ? { kind: 'nothing', after: action(rule.after) } : f) as F;
      case 'first':
        return { kind: 'first', action: action(rule.action) } as RuleFact<A> as F;
      case 'order':
        // biome-ignore lint/suspicious/noThenProperty: the grammar's second action, never awaited
        return { kind: 'order', action: action(rule.action), then: action(rule.then) } as RuleFact<A> as F;
    }
  };
  const procedureFacts = (facts: readonly F[]) => facts.map(procedureFact).filter((f): f is F => f !== null);
  const mistakeFacts = (m: Mistake<A, O, H>): F[] => {
    switch (m.kind) {
      case 'doing':
      case 'instead':
        return p.actionFacts(m.action);
      case 'before':
        return [...p.actionFacts(m.action), ...p.actionFacts(m.then)];
      default:
        return [];
    }
  };
  const factFacts = (f: F): F[] => {
    if (!isRuleFact<A>(f)) return [f];
    const rule: RuleFact<A> = f;
    switch (rule.kind) {
      case 'nothing':
        return [];
      case 'first':
        return p.actionFacts(rule.action);
      case 'order':
        return [...p.actionFacts(rule.action), ...p.actionFacts(rule.then)];
    }
  };
  return {
    procedure(text) {
      const s = parsed(text);
      const facts = procedureFacts(s.facts);
      return p.formatPart(
        s.kind === 'workflow'
          ? { kind: 'workflow', actions: s.actions.map(action), facts }
          : { kind: 'avoid', mistake: procedureMistake(s.mistake), signs: procedureFacts(s.signs), facts },
      );
    },
    facts(text) {
      const s = parsed(text);
      const head =
        s.kind === 'workflow'
          ? s.actions.flatMap(p.actionFacts)
          : [...mistakeFacts(s.mistake), ...s.signs.flatMap(factFacts)];
      const sentences = [...head, ...s.facts.flatMap(factFacts)].map((f) => p.formatFacts([f]));
      return [...new Set(sentences)].join(' ');
    },
  };
}
