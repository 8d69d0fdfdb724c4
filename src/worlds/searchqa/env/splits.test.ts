import { describe, expect, it } from 'vitest';
import { encyclopediaOf } from './encyclopedia.ts';
import { KINDS, QUESTION_KINDS } from './questions.ts';
import type { QaScene } from './scene.ts';
import {
  evalQaScenes,
  generateQaScene,
  HELD_OUT_KINDS,
  isHeldOutEntity,
  isUnseenQuestion,
  QA_EVAL_COUNTS,
  validationQaScenes,
  validationUnseenQaScenes,
} from './splits.ts';

const enc = encyclopediaOf();
const train = Array.from({ length: 400 }, (_, i) => generateQaScene('train', i % 200, Math.floor(i / 200)));
const seen = evalQaScenes('seen');
const unseen = evalQaScenes('unseen');
const heldOutNeeded = (s: QaScene) => s.question.needed.some((name) => isHeldOutEntity(enc, name));

describe('the search-QA splits', () => {
  it('have fixed eval sets of 200 games each, drawn alike every time', () => {
    expect(QA_EVAL_COUNTS).toEqual({ seen: 200, unseen: 200 });
    expect(seen).toHaveLength(200);
    expect(unseen).toHaveLength(200);
    expect(evalQaScenes('seen', 5)).toEqual(seen.slice(0, 5));
    expect(generateQaScene('train', 7, 3)).toEqual(generateQaScene('train', 7, 3));
    expect(generateQaScene('train', 7, 3)).not.toEqual(generateQaScene('train', 7, 4));
  });

  it('hold out one person and one organisation in five, and never a country or a city', () => {
    const people = enc.people.filter((p) => isHeldOutEntity(enc, p.name)).length;
    const organisations = enc.organisations.filter((o) => isHeldOutEntity(enc, o.name)).length;
    expect(people / enc.people.length).toBeGreaterThan(0.1);
    expect(people / enc.people.length).toBeLessThan(0.3);
    expect(organisations).toBeGreaterThan(0);
    for (const c of [...enc.countries, ...enc.cities]) expect(isHeldOutEntity(enc, c.name)).toBe(false);
  });

  it('keep held-out entities and kinds out of training and eval-seen', () => {
    for (const scene of [...train, ...seen, ...validationQaScenes(50)]) {
      expect(HELD_OUT_KINDS).not.toContain(scene.question.kind);
      expect(heldOutNeeded(scene), scene.question.text).toBe(false);
      expect(isUnseenQuestion(enc, scene.question)).toBe(false);
    }
  });

  it('make every eval-unseen game a held-out kind or a question about a held-out entity, about one in four the first', () => {
    const composed = unseen.filter((s) => HELD_OUT_KINDS.includes(s.question.kind));
    for (const scene of unseen) expect(isUnseenQuestion(enc, scene.question)).toBe(true);
    for (const scene of unseen.filter((s) => !composed.includes(s))) expect(heldOutNeeded(scene)).toBe(true);
    expect(composed.length).toBeGreaterThan(30);
    expect(composed.length).toBeLessThan(70);
  });

  it('train every hop of a held-out kind in a trained kind', () => {
    const trained = new Set(train.map((s) => s.question.kind));
    expect([...trained].sort()).toEqual(QUESTION_KINDS.filter((k) => !HELD_OUT_KINDS.includes(k)).sort());
    for (const kind of HELD_OUT_KINDS) {
      const hops = KINDS[kind].solve(enc, [enc.organisations[0].name]).hops;
      for (const [i, hop] of hops.entries()) {
        const kindOfEntity = enc.kinds.get(hop.entity);
        const alike = train.some((s) =>
          s.question.hops.some((h) => h.relation === hop.relation && enc.kinds.get(h.entity) === kindOfEntity),
        );
        expect(alike, `hop ${i} of ${kind}`).toBe(true);
      }
      // The held-out kind's answer (a country of birth) is what trained questions about people ask too.
      expect(trained.has('birth-country')).toBe(true);
    }
  });

  it('draw the three task types about equally', () => {
    for (const scenes of [train, seen]) {
      for (const type of ['single-hop', 'bridge', 'comparison']) {
        const share = scenes.filter((s) => s.question.type === type).length / scenes.length;
        expect(share).toBeGreaterThan(0.25);
        expect(share).toBeLessThan(0.42);
      }
    }
  });

  it('keep validation apart from the eval sets', () => {
    const key = (s: QaScene) => JSON.stringify(s.question);
    const validation = validationQaScenes(50).map(key);
    expect(validation).not.toEqual(seen.slice(0, 50).map(key));
    const reported = new Set(evalQaScenes('seen').map(key));
    expect(validation.filter((v) => reported.has(v))).toEqual([]);
    expect(validationQaScenes(5).map(key)).toEqual(validation.slice(0, 5));
  });

  it('draw validation-unseen games of the unseen kind, none of them a question eval-unseen asks', () => {
    const games = validationUnseenQaScenes();
    expect(games).toHaveLength(QA_EVAL_COUNTS.unseen);
    for (const scene of games) expect(isUnseenQuestion(enc, scene.question)).toBe(true);
    const asked = (s: QaScene) => `${s.question.kind}/${s.question.subjects.join('+')}`;
    const reported = new Set(unseen.map(asked));
    expect(games.filter((s) => reported.has(asked(s)))).toEqual([]);
    // The held-out kind asks one question per organisation, and eval-unseen asks most of them: about one game in
    // ten is of that kind, of the few organisations left, rather than eval-unseen's one in four.
    const composed = games.filter((s) => HELD_OUT_KINDS.includes(s.question.kind));
    expect(composed.length).toBeGreaterThan(10);
    expect(composed.length).toBeLessThan(40);
    expect(new Set(composed.map(asked)).size).toBeGreaterThan(1);
    expect(validationUnseenQaScenes(5)).toEqual(games.slice(0, 5));
  });

  it('refuse an unknown split or a bad index', () => {
    expect(() => generateQaScene('test' as 'train', 0)).toThrow(/unknown searchqa split "test"/);
    expect(() => generateQaScene('train', -1)).toThrow(/non-negative integer/);
    expect(() => generateQaScene('train', 1.5)).toThrow(/non-negative integer/);
  });
});
