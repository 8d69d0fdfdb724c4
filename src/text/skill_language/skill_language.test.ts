// The skill language as a new world writes one: a small question-answering world (the kind of skills the searchqa
// world will write: "workflow: search aldor venn, answer kestria. aldor venn was born in kestria.") given as a
// shape, a grammar definition and its own readers, writers and parts, and checked as the worlds' grammar tests
// check theirs: every mask against the parser's acceptance.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MARKERS } from '../markers.ts';
import { Tokenizer } from '../tokenizer.ts';
import { alt, determinise, opt, plus, type Rx, seq, star } from './automaton.ts';
import { SkillGrammar, type EntityFilter } from './decoder.ts';
import type { SkillGrammarDefinition } from './grammar.ts';
import { skillParts } from './parts.ts';
import { type SkillReader, type SkillReading, skillParser } from './reading.ts';
import {
  factsText,
  type Mistake,
  type RuleFact,
  ruleFactWords,
  type Skill,
  type SkillShape,
  skillRx,
  skillText,
  type SkillWriting,
} from './skeleton.ts';
import { grammarConformance, grammarWalks } from './grammar_testing.ts';

// ---- the world's own: its structures, words, writers, readers, grammar and parts ----

type Step = { verb: 'search'; name: string[] } | { verb: 'answer'; name: string[] };
type Fact = { kind: 'born'; name: string[]; in: string[] } | RuleFact<Step>;
type QaSkill = Skill<Step, Fact, Mistake<Step, Step>>;

const NAMES = ['aldor', 'venn', 'kestria', 'mara', 'olt', 'this'];
const isName = (w: string) => NAMES.includes(w.toLowerCase());
const GERUND = { search: 'searching', answer: 'answering' } as const;
const SHAPE: SkillShape = {
  name: 'qa skill',
  minWords: 4,
  step: 'step',
  invalid: 'actions',
  signsRequired: false,
  how: [],
};

const stepWords = (s: Step, gerund: boolean) => [gerund ? GERUND[s.verb] : s.verb, ...s.name];
function factWords(f: Fact): string[] {
  if (f.kind === 'born') return [...f.name, 'was', 'born', 'in', ...f.in];
  return ruleFactWords(f, stepWords);
}
const WRITING: SkillWriting<Step, Fact, Step> = {
  actionWords: stepWords,
  factWords,
  ofWords: (s) => stepWords(s, true),
};
const format = (s: QaSkill, part = false) => skillText(s, SHAPE, WRITING, part);

const readName = (r: SkillReader) => r.run(isName, 'a name');
const READING: SkillReading<Step, Fact, Step> = {
  readAction(r, gerund) {
    const verb = r.oneOf(gerund ? ['searching', 'answering'] : ['search', 'answer']);
    return { verb: verb.startsWith('search') ? 'search' : 'answer', name: readName(r) };
  },
  readOwnFact(r) {
    if (!isName(r.peek() ?? '')) return undefined;
    const name = readName(r);
    for (const w of ['was', 'born', 'in']) r.expect(w);
    return { kind: 'born', name, in: readName(r) };
  },
  startsStep: (r) => ['search', 'answer'].includes(r.peek() ?? ''),
  readOf: (r) => READING.readAction(r, true),
  factExpected: 'a fact (a name, "nothing happens" or a step)',
};
const parse = skillParser(SHAPE, READING);

const NAME = '#name';
const name: Rx = plus(NAME);
const step = (gerund: boolean) => seq(alt(gerund ? 'searching' : 'search', gerund ? 'answering' : 'answer'), name);
const GRAMMAR: SkillGrammarDefinition = {
  name: SHAPE.name,
  rx: skillRx(SHAPE, { step, of: step(true), facts: [seq(name, 'was', 'born', 'in', name)] }),
  minWords: SHAPE.minWords,
  classes: [{ symbol: NAME, member: isName, named: true, maxRun: 2 }],
};

const parts = skillParts({
  name: SHAPE.name,
  parse,
  formatPart: (s) => format(s, true),
  formatFacts: (facts) => factsText(facts, factWords),
  procedureAction: (s) => ({ verb: s.verb, name: ['this'] }),
  procedureOf: (s) => ({ verb: s.verb, name: ['this'] }),
  actionFacts: () => [],
});

// ---- the checks ----

const words = ['workflow', 'avoid', 'search', 'answer', 'searching', 'answering', 'was', 'born', 'in', 'nothing'];
const more = ['happens', 'after', 'first', 'before', 'instead', 'of', 'forgetting', 'to', 'invalid', 'actions'];
const tok = new Tokenizer([
  ...MARKERS,
  ...[...words, ...more, 'running', 'out', 'steps', ':', ',', ';', '.', ...NAMES, 'Aldor', 'Venn', 'the'].sort(),
]);
const grammar = new SkillGrammar(GRAMMAR, tok);

const someName = fc.array(fc.constantFrom(...NAMES.slice(0, 5)), { minLength: 1, maxLength: 3 });
const aStep = fc.record({ verb: fc.constantFrom('search' as const, 'answer' as const), name: someName });
const aFact: fc.Arbitrary<Fact> = fc.oneof(
  fc.record({ kind: fc.constant('born' as const), name: someName, in: someName }),
  aStep.map((s): Fact => ({ kind: 'first', action: s })),
  // biome-ignore lint/suspicious/noThenProperty: the grammar's second step, never awaited
  fc.tuple(aStep, aStep).map(([a, b]): Fact => ({ kind: 'order', action: a, then: b })),
  fc.constant<Fact>({ kind: 'nothing' }),
);
const aSkill: fc.Arbitrary<QaSkill> = fc.oneof(
  fc.record({
    kind: fc.constant('workflow' as const),
    actions: fc.array(aStep, { minLength: 1, maxLength: 3 }),
    facts: fc.array(aFact, { maxLength: 2 }),
  }),
  fc.record({
    kind: fc.constant('avoid' as const),
    mistake: fc.oneof(
      fc.tuple(aStep, aStep).map(([a, b]): Mistake<Step, Step> => ({ kind: 'instead', action: a, of: b })),
      fc.constant<Mistake<Step, Step>>({ kind: 'steps' }),
    ),
    signs: fc.array(aFact, { maxLength: 2 }),
    facts: fc.array(aFact, { maxLength: 2 }),
  }),
);
const { allowedTokens } = grammarWalks(tok, grammar);
const allowedAfter = (text: string, filter?: EntityFilter) =>
  allowedTokens(grammar.allowed(grammar.walk(tok.encode(text))!, 40, filter)).map((id) => tok.token(id));

describe('a skill language from a grammar definition', () => {
  grammarConformance({
    tok,
    grammar,
    arbitrarySkill: aSkill,
    format: (skill) => format(skill),
    parse,
    minWords: SHAPE.minWords,
    shortestTokens: grammar.shortest,
    largestBudget: 40,
    // The decoder never writes a name three times in a row: such a skill is refused at its third word.
    refusedOnTheWay: (_skill, text) => /\b(\w+) \1 \1\b/.test(text),
  });

  it('formats, parses back and takes apart a skill of the shape', () => {
    const s: QaSkill = {
      kind: 'workflow',
      actions: [
        { verb: 'search', name: ['aldor', 'venn'] },
        { verb: 'answer', name: ['kestria'] },
      ],
      facts: [{ kind: 'born', name: ['aldor', 'venn'], in: ['kestria'] }],
    };
    const text = format(s);
    expect(text).toBe('workflow: search aldor venn, answer kestria. aldor venn was born in kestria.');
    expect(parse(text)).toEqual({ ok: true, kind: 'workflow', reason: '', skill: s });
    expect(parse('workflow: search.')).toEqual({
      ok: false,
      kind: 'workflow',
      reason: 'too short: 2 words, at least 4 needed',
      skill: null,
    });
    expect(parse('avoid: searching olt twice.').reason).toBe('expected "." after "olt", got "twice"');
    expect(parts.procedure(text)).toBe('workflow: search this, answer this.');
    expect(parts.facts(text)).toBe('aldor venn was born in kestria.');
  });

  it("limits a named class to the trajectory's words, reads them in any case, and refuses a third word in a row", () => {
    expect(grammar.shortest).toBe(6);
    const filter = grammar.entityFilter(['Aldor', 'Venn', 'born']);
    expect(allowedAfter('workflow: search', filter).sort()).toEqual(['Aldor', 'Venn', 'aldor', 'venn']);
    expect(allowedAfter('workflow: search').length).toBe(NAMES.length + 2);
    expect(allowedAfter('workflow: search venn venn', filter)).not.toContain('venn');
    expect(allowedAfter('workflow: search venn venn', filter)).toContain('Aldor');
    expect(grammar.walk(tok.encode('workflow: search Aldor Venn.'))).not.toBeNull();
  });
});

describe('the automaton and the symbol table', () => {
  it('skips an optional part that ends in a loop without entering the loop', () => {
    const dfa = determinise(seq(opt(seq('a', star('b'))), 'c'));
    const accepts = (symbols: string[]) => {
      let state: number | undefined = 0;
      for (const sym of symbols) state = state === undefined ? undefined : dfa.next[state].get(sym);
      return state !== undefined && dfa.accepting[state];
    };
    expect([['c'], ['a', 'c'], ['a', 'b', 'b', 'c']].map(accepts)).toEqual([true, true, true]);
    expect(accepts(['b', 'c'])).toBe(false);
  });

  it('refuses a grammar that could read a token two ways, and a vocabulary without a token of a symbol', () => {
    const ambiguous: SkillGrammarDefinition = { ...GRAMMAR, rx: seq('workflow', alt(NAME, 'olt'), '.') };
    expect(() => new SkillGrammar(ambiguous, tok)).toThrow(
      'a state of the qa skill automaton reads a token two ways, as "olt" and "#name"',
    );
    const small = new Tokenizer([...MARKERS, 'workflow', '.']);
    expect(() => new SkillGrammar({ ...GRAMMAR, rx: seq('workflow', NAME, '.') }, small)).toThrow(
      'the vocabulary has no token for the qa skill symbol "#name"',
    );
  });
});
