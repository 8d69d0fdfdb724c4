import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hashString } from '../common/rng.ts';
import { OBJECT_KINDS, RECEPTACLE_KINDS } from '../worlds/household/env/knowledge.ts';
import { allTemplateTexts, introText, say } from '../worlds/household/env/text.ts';
import { environmentWords, splitWords } from '../worlds/household/env/vocabulary.ts';
import { MARKERS } from './markers.ts';
import { joinPieces, splitPieces } from './pieces.ts';
import { SKILL_WORDS } from '../worlds/household/skills/skill.ts';
import { Tokenizer, defaultTokenizer, defaultVocabulary } from './tokenizer.ts';

// Verbatim ALFWorld engine text (the README of ALFWorld's scripts folder, github.com/alfworld/alfworld, and the ReAct prompts).
const REAL_TEXT = [
  '-= Welcome to TextWorld, ALFRED! =-\n\nYou are in the middle of a room. Looking quickly around you, you see a ' +
    'cabinet 10, a cabinet 9, a coffeemachine 1, a countertop 3, a diningtable 1, a drawer 6, a fridge 1, a ' +
    'garbagecan 1, a microwave 1, a sinkbasin 1, a stoveburner 4, and a toaster 1.\n\nYour task is to: heat some ' +
    'egg and put it in diningtable.',
  'You open the fridge 1. The fridge 1 is open. In it, you see a lettuce 2, a mug 2, and a potato 3.',
  'On the countertop 3, you see a bowl 1, a butterknife 1, a egg 2, a kettle 2, a plate 1, a sink 1, and a spatula 2.',
  'On the countertop 2, you see nothing.',
  'You pick up the egg 2 from the countertop 3.',
  'The microwave 1 is closed.',
  'You heat the potato 1 using the microwave 1.',
  'You put the potato 1 in/on the diningtable 1.',
  'Nothing happens.',
  'You are in the middle of a room. Looking quickly around you, you see nothing.',
  'You turn on the desklamp 1.',
  'take egg 2 from countertop 3',
  'put potato 1 in/on diningtable 1',
  'heat potato 1 with microwave 1',
  'go to stoveburner 1',
];

describe('pieces', () => {
  it('splits words, punctuation, in/on, the banner marks and newlines, keeping case', () => {
    expect(splitPieces("-= Welcome to TextWorld, ALFRED! =-\n\nThere's a mug 12.")).toEqual([
      '-=',
      'Welcome',
      'to',
      'TextWorld',
      ',',
      'ALFRED',
      '!',
      '=-',
      '\n',
      '\n',
      "There's",
      'a',
      'mug',
      '12',
      '.',
    ]);
    expect(splitPieces('put mug 1 in/on shelf 2')).toEqual(['put', 'mug', '1', 'in/on', 'shelf', '2']);
  });

  it('joins with one space, none before . , : ; ! ? and none around newlines', () => {
    expect(joinPieces(['Your', 'task', 'is', 'to', ':', 'look', '.', '\n', 'a', ',', 'b', ';', 'c', '!', '=-'])).toBe(
      'Your task is to: look.\na, b; c! =-',
    );
  });

  it('agrees with the environment splitter up to case and newlines', () => {
    for (const text of [...REAL_TEXT, ...allTemplateTexts()]) {
      expect(
        splitPieces(text)
          .filter((p) => p !== '\n')
          .map((p) => p.toLowerCase()),
      ).toEqual(splitWords(text));
    }
  });
});

describe('defaultTokenizer', () => {
  const tok = defaultTokenizer();

  it('has the markers first, every environment and skill word, and stays under 350 tokens', () => {
    expect(tok.vocabSize).toBeLessThan(350);
    expect(tok.tokens.slice(0, MARKERS.length)).toEqual([...MARKERS]);
    expect([tok.padId, tok.unkId, tok.endId]).toEqual([0, 1, 2]);
    for (const w of [...environmentWords(), ...SKILL_WORDS]) expect(tok.has(w)).toBe(true);
    for (const w of ['You', 'The', 'On', 'In', 'Nothing', 'TextWorld', 'ALFRED', "There's"])
      expect(tok.has(w)).toBe(true);
    expect(tok.has('x')).toBe(false);
    expect(new Set(tok.tokens).size).toBe(tok.vocabSize);
    expect(tok.tokens.slice(MARKERS.length)).toEqual([...tok.tokens.slice(MARKERS.length)].sort());
  });

  it('round-trips real ALFWorld text exactly and without unknown pieces', () => {
    for (const text of REAL_TEXT) {
      const ids = tok.encode(text);
      expect(ids).not.toContain(tok.unkId);
      expect(tok.decode(ids)).toBe(text);
    }
  });

  it('round-trips every sentence the environment can print, for every type name', () => {
    const objects = Object.keys(OBJECT_KINDS);
    const receps = Object.keys(RECEPTACLE_KINDS);
    const texts: string[] = [
      introText(
        receps.map((r) => `${r} 30`),
        'put a mug in cabinet',
      ),
    ];
    for (const o of objects) {
      texts.push(say.take(`${o} 1`, 'countertop 2'), say.plainThing(`${o} 7`), say.carrying(`${o} 3`));
    }
    for (const r of receps)
      texts.push(
        say.onTop(
          `${r} 12`,
          objects.map((o) => `${o} 2`),
        ),
        say.openView(`${r} 1`, []),
      );
    for (const text of [...texts, ...allTemplateTexts().filter((t) => !/\bx\b/.test(t))]) {
      expect(tok.unknownPieces(text)).toEqual([]);
      expect(tok.decode(tok.encode(text))).toBe(text);
    }
  });

  it('encodes an unknown word as the explicit unknown token', () => {
    const ids = tok.encode('You see a unicorn 1.');
    expect(ids.map((id) => tok.token(id))).toEqual(['You', 'see', 'a', '<unk>', '1', '.']);
    expect(tok.decode(ids)).toBe('You see a <unk> 1.');
    expect(tok.unknownPieces('You see a unicorn and a Mug.')).toEqual(['unicorn', 'Mug']);
  });

  it('decodes markers by name and newlines as newlines', () => {
    const ids = [tok.id('<task>'), ...tok.encode('look'), tok.id('<nl>'), tok.id('<end>')];
    expect(tok.decode(ids)).toBe('<task> look\n<end>');
    expect(() => tok.id('unicorn')).toThrow(/not a token/);
    expect(() => tok.token(tok.vocabSize)).toThrow(/outside the vocabulary/);
  });

  it('gives back the same ids for any decoded sequence of text tokens', () => {
    const textIds = tok.tokens.map((_, i) => i).filter((i) => i === tok.id('<nl>') || !tok.token(i).startsWith('<'));
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...textIds), { maxLength: 40 }), (ids) => {
        expect(tok.encode(tok.decode(ids))).toEqual(ids);
      }),
      { numRuns: 500 },
    );
  });

  it('has a stable hash of its token list', () => {
    expect(tok.hash).toBe(hashString(defaultVocabulary().join(' ')).toString(16).padStart(8, '0'));
    expect(new Tokenizer(defaultVocabulary()).hash).toBe(tok.hash);
    // FNV-1a 32 of "<pad> <unk> <end> <nl> a", computed independently: the hash function itself cannot drift.
    const small = new Tokenizer(['<pad>', '<unk>', '<end>', '<nl>', 'a']);
    expect(small.hash).toBe('0d60654c');
    expect(new Tokenizer(['<pad>', '<unk>', '<end>', '<nl>', 'b']).hash).not.toBe(small.hash);
    expect(defaultTokenizer()).toBe(tok);
  });

  it('refuses a malformed vocabulary', () => {
    expect(() => new Tokenizer(['<pad>', '<unk>', '<end>', '<nl>', 'a', 'a'])).toThrow(/twice/);
    expect(() => new Tokenizer(['<pad>', '<unk>', '<end>', 'a'])).toThrow(/lacks the marker <nl>/);
    expect(() => new Tokenizer(['<pad>', '<unk>', '<end>', '<nl>', 'a b'])).toThrow(/whitespace/);
  });
});
