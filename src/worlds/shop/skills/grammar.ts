// The shop's skill grammar (skill.ts) as the constrained decoder takes it (src/text/skill_language/: the
// automaton over words, run over tokens, with its budget and filters), so that the analyzer can only write text
// that parseShopSkill accepts. The symbols: the literal words, WORD (a content word: any word piece but the
// CONTENT_STOPS) and NUMBER (a piece of digits).
//
// A token is read by where it stands: as a grammar word where the state has that word's edge, as NUMBER where it
// is digits and the state takes a number, else as WORD where it is a content word and the state takes one. The
// decoder checks that no state could read a token two ways: a state that takes WORD has no literal word edge
// but a stop, and none takes both WORD and NUMBER. The parser's runs of TERMS end exactly where the automaton's
// do, so both accept the same texts.
//
// The entity filter limits WORD and NUMBER to the words of a trajectory (its instruction, queries, titles,
// options, prices), leaving a class whole when the trajectory has none of it, so that every symbol keeps a token
// and a mask never leads into a dead end. A title may say a word twice in a row ("leather leather loafers": the
// material, then the type), never three times: the decoder writes a content word at most twice in a row.
import { alt, opt, type Rx, seq, star } from '../../../text/skill_language/automaton.ts';
import { grammarOf } from '../../../text/skill_language/decoder.ts';
import type { SkillGrammarDefinition } from '../../../text/skill_language/grammar.ts';
import { skillRx } from '../../../text/skill_language/skeleton.ts';
import { SHOP_GERUND, SHOP_IMPERATIVE, SHOP_SHAPE, isContentWord, type ShopAction } from './skill.ts';

const WORD = '#word';
const NUMBER = '#number';

const terms = seq(WORD, star(seq(opt('-'), WORD)));
const price = seq(NUMBER, opt(seq('.', NUMBER)), 'dollars');
const item = seq(
  opt(seq('whose', 'title', alt('says', 'lacks'), terms)),
  opt(seq('priced', alt('under', 'over'), price)),
);
const options = seq('the', terms, star(seq('and', 'the', terms)));

function step(gerund: boolean): Rx {
  const v = (verb: ShopAction['verb']) => (gerund ? SHOP_GERUND[verb] : SHOP_IMPERATIVE[verb]);
  return alt(
    seq(v('search'), alt(seq('for', terms), 'again')),
    seq(v('click'), alt(seq('an', 'item', item), 'next')),
    seq(v('back'), 'back', 'to', 'search'),
    seq(v('choose'), options),
    gerund ? seq(v('buy'), opt(seq('an', 'item', item))) : seq(v('buy'), 'now'),
  );
}

const facts = [
  seq('the', alt('first', 'next'), 'page', 'had', alt('no', 'an'), 'item', item),
  seq('the', 'price', 'bound', 'was', price),
  seq('the', 'item', alt(seq('cost', price), seq(alt('offered', 'lacked'), options), seq('was', 'titled', terms))),
  seq('the', 'instruction', 'asked', 'for', terms, star(seq('and', terms))),
];

export const SHOP_SKILL_GRAMMAR: SkillGrammarDefinition = {
  name: SHOP_SHAPE.name,
  rx: skillRx(SHOP_SHAPE, { step, of: step(true), facts }),
  minWords: SHOP_SHAPE.minWords,
  classes: [
    { symbol: NUMBER, member: (t) => /^[0-9]+$/.test(t), named: true },
    { symbol: WORD, member: isContentWord, named: true, maxRun: 2 },
  ],
};

/** The shop's skill grammar over a tokenizer, built once. */
export const shopSkillGrammar = grammarOf(SHOP_SKILL_GRAMMAR);
