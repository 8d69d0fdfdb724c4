import { describe, expect, it } from 'vitest';
import { mutate, parsesOrRefuses } from '../../../common/parser_testing.ts';
import { Rng } from '../../../common/rng.ts';
import { encyclopediaOf } from './encyclopedia.ts';
import { QUESTION_KINDS } from './questions.ts';
import { QaSceneError, qaSceneFromJson, qaSceneToJson } from './scene.ts';
import { generateQaScene } from './splits.ts';

const scene = generateQaScene('seen', 0, 1);
const json = JSON.parse(qaSceneToJson(scene));
const bad = (edit: (data: typeof json) => void) => {
  const data = structuredClone(json);
  edit(data);
  return () => qaSceneFromJson(JSON.stringify(data));
};
const enc = encyclopediaOf();

describe('search-QA scene JSON', () => {
  it('writes the encyclopedia seed, the kind and the subjects only', () => {
    expect(json).toEqual({
      version: 1,
      encyclopedia: { seed: 1 },
      question: { kind: 'born-first', subjects: ['Marno Brude', 'Zondir Faern'] },
    });
  });

  it('round-trips the scenes of every split and kind, and of another encyclopedia', () => {
    const kinds = new Set<string>();
    for (const split of ['train', 'seen', 'unseen'] as const) {
      for (let i = 0; i < 60; i++) {
        const s = generateQaScene(split, i, 2);
        kinds.add(s.question.kind);
        expect(qaSceneFromJson(qaSceneToJson(s))).toEqual(s);
      }
    }
    expect([...kinds].sort()).toEqual([...QUESTION_KINDS].sort());
    const other = generateQaScene('train', 0, 0, { seed: 12345 });
    expect(qaSceneFromJson(qaSceneToJson(other))).toEqual(other);
  });

  it('names the field of every refusal', () => {
    expect(() => qaSceneFromJson('{')).toThrow(/^not JSON/);
    expect(() => qaSceneFromJson('[]')).toThrow(/^a search-QA scene is a JSON object/);
    expect(bad((d) => (d.version = 2))).toThrow(/^version: must be 1, got 2/);
    expect(bad((d) => (d.extra = 1))).toThrow(/^extra: unknown field$/);
    expect(bad((d) => delete d.question)).toThrow(/^question: missing$/);
    expect(bad((d) => (d.encyclopedia = 'big'))).toThrow(/^encyclopedia: must be an object \{ seed \}, got "big"/);
    expect(bad((d) => (d.encyclopedia.size = 3))).toThrow(/^encyclopedia\.size: unknown field/);
    for (const seed of [-1, 1.5, '1', 2 ** 32])
      expect(bad((d) => (d.encyclopedia.seed = seed))).toThrow(/^encyclopedia\.seed: must be an integer from 0/);
    expect(bad((d) => (d.question.kind = 'capital-of-nowhere'))).toThrow(
      /^question\.kind: must be one of birth-year, .*, got "capital-of-nowhere"/,
    );
    expect(bad((d) => (d.question.subjects = 'Marno Brude'))).toThrow(/^question\.subjects: must be a list of names/);
    expect(bad((d) => (d.question.subjects[1] = 7))).toThrow(/^question\.subjects\[1\]: must be a name, got 7/);
  });

  it('refuses names that are not entities of the kind the question asks about', () => {
    expect(bad((d) => (d.question.subjects[0] = 'Nobody Atall'))).toThrow(
      /^question\.subjects\[0\]: "Nobody Atall" is no entity of the encyclopedia, not a person \(encyclopedia seed 1\)/,
    );
    expect(bad((d) => (d.question.subjects[1] = enc.countries[0].name))).toThrow(
      /^question\.subjects\[1\]: "\w+" is a country, not a person/,
    );
    expect(bad((d) => d.question.subjects.pop())).toThrow(
      /^question\.subjects: a born-first question names 2 entities, got 1/,
    );
    expect(bad((d) => (d.question.subjects[1] = d.question.subjects[0]))).toThrow(
      /^question\.subjects\[1\]: Marno Brude is compared with itself/,
    );
    // The names of the default encyclopedia are not all people of another.
    expect(bad((d) => (d.encyclopedia.seed = 9))).toThrow(/^question\.subjects\[\d\]: .* \(encyclopedia seed 9\)/);
  });

  it('refuses a comparison of two entities of the same year, which has no single answer', () => {
    const a = enc.people.find((p) => enc.people.some((q) => q !== p && q.born === p.born))!;
    const twin = enc.people.find((p) => p !== a && p.born === a.born)!;
    expect(bad((d) => (d.question.subjects = [a.name, twin.name]))).toThrow(
      new RegExp(`^question\\.subjects: ${a.name} and ${twin.name} share the year ${a.born}`),
    );
  });

  it('refuses the fields a question derives, and says so', () => {
    expect(bad((d) => (d.question.answer = 'Marno Brude'))).toThrow(
      /^question\.answer: unknown field: the question writes it from its kind, its subjects and the encyclopedia/,
    );
    expect(bad((d) => (d.question.text = 'Who?'))).toThrow(/^question\.text: unknown field: the question writes it/);
  });

  it('refuses keys and names that every object has, as any unknown one (own properties only)', () => {
    for (const key of ['constructor', '__proto__', 'toString']) {
      const text = qaSceneToJson(scene).replace('"question":{', `"question":{"${key}":1,`);
      expect(() => qaSceneFromJson(text)).toThrow(new RegExp(`^question\\.${key}: unknown field$`));
      const top = qaSceneToJson(scene).replace('{"version"', `{"${key}":{},"version"`);
      expect(() => qaSceneFromJson(top)).toThrow(new RegExp(`^${key}: unknown field$`));
      expect(bad((d) => (d.question.subjects[0] = key))).toThrow(
        new RegExp(`^question\\.subjects\\[0\\]: "${key}" is no entity of the encyclopedia`),
      );
      expect(bad((d) => (d.question.kind = key))).toThrow(/^question\.kind: must be one of/);
    }
  });

  it('answers any mutation of a scene with a scene or a one-line QaSceneError', () => {
    const text = qaSceneToJson(scene);
    const rng = new Rng(5);
    const chars = '{}[]":,0123456789abcMZ \n\u2028\u001b';
    const outcomes = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const edits = Array.from(
        { length: 1 + rng.int(3) },
        () => [rng.int(1000), rng.int(3), rng.pick([...chars])] as const,
      );
      outcomes.add(parsesOrRefuses(() => qaSceneFromJson(mutate(text, edits)), QaSceneError));
    }
    expect(outcomes).toEqual(new Set(['value', 'refused']));
  });
});
