// The household's skill grammar (skill.ts) as a regular expression over the automaton's symbols
// (text/skill_automaton.ts), and its automaton, which skill_grammar.ts runs over tokens.
import {
  alt,
  determinise,
  GOES_TO,
  NUMBER,
  OBJECT,
  opt,
  RECEPTACLE,
  seq,
  star,
  WAS_IN,
  WAS_NOT_IN,
  type Dfa,
  type Rx,
} from '../../../text/skill_automaton.ts';
import { GERUND, type Verb } from './skill.ts';

const plus = (rx: Rx): Rx => seq(rx, star(rx));

const thing = alt('it', 'them', seq(alt('the', 'a', 'another'), OBJECT, opt(NUMBER)));
const placeOf = (receptacle: string) => seq(opt(alt(seq('the', opt('same')), 'a')), receptacle, opt(NUMBER));
const placesOf = (receptacle: string) => seq(placeOf(receptacle), star(seq('and', placeOf(receptacle))));
const place = placeOf(RECEPTACLE);
const places = placesOf(RECEPTACLE);

function action(gerund: boolean): Rx {
  const v = (verb: Verb) => (gerund ? GERUND[verb] : verb);
  return alt(
    seq(alt(v('find'), v('use')), thing),
    seq(v('go'), 'to', place),
    seq(alt(v('open'), v('close')), place),
    seq(v('take'), thing, opt(seq('from', placeOf(WAS_IN)))),
    seq(v('put'), thing, alt('in', 'on'), placeOf(GOES_TO)),
    seq(alt(v('heat'), v('cool'), v('clean')), thing, opt(seq('with', place))),
    seq(v('examine'), alt(thing, place)),
    seq(v('search'), places),
  );
}

const mistake = alt(
  seq(action(true), opt(alt('twice', 'again', seq('before', action(true)), seq('instead', 'of', thing)))),
  seq('forgetting', 'to', action(false)),
  seq('invalid', 'commands'),
  seq('running', 'out', 'of', 'steps'),
);
const fact = alt(
  seq(thing, 'was', alt(seq(alt('in', 'on'), placesOf(WAS_IN)), seq('not', alt('in', 'on'), placesOf(WAS_NOT_IN)))),
  seq(place, 'was', alt('closed', 'open', 'empty')),
  seq('you', 'searched', places),
  seq('nothing', 'happens', opt(seq('after', action(true)))),
  seq(action(false), alt('first', seq('before', action(true)))),
);
const SKILL_RX = seq(
  alt(
    seq('workflow', ':', action(false), star(seq(',', action(false)))),
    seq('avoid', ':', mistake, plus(seq(';', fact))),
  ),
  '.',
  star(seq(fact, '.')),
);

/** The skill grammar as a deterministic automaton over symbols (state 0 is the start). */
export function skillAutomaton(): Dfa {
  return determinise(SKILL_RX);
}
