import { describe, expect, it } from 'vitest';
import { Rng } from '../../../common/rng.ts';
import { generateScene } from '../env/splits.ts';
import { TINY } from '../env/scale.ts';
import type { Scene } from '../env/scene.ts';
import { parseSkill } from '../skills/parser.ts';
import { skillGrammar } from '../skills/grammar.ts';
import { defaultTokenizer } from '../../../text/tokenizer.ts';
import { runExplorer } from './explorer.ts';
import { observedPlaces, trajectoryWords } from './observed.ts';
import { referenceSkill } from './skill_fidelity.ts';
import { placeClaims, placeTruthShares, skillPlaceTruth } from './skill_truth.ts';

// mug 1 started in the cabinet 2, mug 2 on the countertop 1; the goal is the diningtable.
const scene: Pick<Scene, 'objects' | 'task'> = {
  objects: [
    { name: 'apple 1', in: 'fridge 1' },
    { name: 'mug 1', in: 'cabinet 2' },
    { name: 'mug 2', in: 'countertop 1' },
  ],
  task: { type: 'pick_and_place_simple', goal: 'put a mug in diningtable', object: 'mug', target: 'diningtable' },
};

const truth = (text: string) => {
  expect(parseSkill(text).ok, text).toBe(true);
  return skillPlaceTruth(text, scene);
};

describe('skill place truth', () => {
  it('a take and a fact that name where the object started are true, with instance numbers checked where given', () => {
    expect(
      truth('workflow: take the mug 1 from the cabinet 2, put it in the diningtable 1. a mug was in a cabinet.'),
    ).toEqual({
      statesTrue: true,
      statesFalse: false,
      goalAsStart: false,
      deniesTrue: false,
      putsElsewhere: false,
    });
    // mug 1 was in the cabinet 2, not on the countertop 1; "a mug was on a countertop" holds of mug 2.
    expect(truth('workflow: take the mug 1 from the countertop 1. a mug was on a countertop.')).toMatchObject({
      statesTrue: true,
      statesFalse: true,
    });
    expect(truth('workflow: take the mug from the cabinet 1, put it in the diningtable 1.')).toMatchObject({
      statesTrue: false,
      statesFalse: true,
    });
  });

  it('the goal receptacle named as where the object was is false and counted apart', () => {
    expect(truth('avoid: forgetting to put it in the diningtable; the mug 2 was on the diningtable 1.')).toEqual({
      statesTrue: false,
      statesFalse: true,
      goalAsStart: true,
      deniesTrue: false,
      putsElsewhere: false,
    });
  });

  it('"it" is the last object named, the task\'s object before any; claims about other objects do not count', () => {
    // "it" after "instead of the mug": the mug.
    expect(
      truth('avoid: taking the apple 1 from the fridge 1 instead of the mug; it was on the countertop 1.'),
    ).toMatchObject({ statesTrue: true, statesFalse: false });
    // The apple's own place is no claim about the mug, right or wrong.
    expect(
      truth('avoid: taking the apple 1 from the sinkbasin 1 instead of the mug; you searched the fridge 1.'),
    ).toEqual({
      statesTrue: false,
      statesFalse: false,
      goalAsStart: false,
      deniesTrue: false,
      putsElsewhere: false,
    });
    expect(truth('avoid: forgetting to heat it with the microwave 1; it was in the cabinet 2.')).toMatchObject({
      statesTrue: true,
    });
    expect(truth('avoid: forgetting to take the mug from the fridge 1; you searched the fridge 1.')).toMatchObject({
      statesFalse: true,
    });
    const claims = placeClaims(
      parseSkill('avoid: taking the apple 1 from the fridge 1 instead of the mug; it was not in the drawer 1.').skill!,
      'mug',
    );
    expect(claims).toEqual([
      { object: { type: 'apple', number: 1 }, place: { det: 'the', type: 'fridge', number: 1 }, claim: 'was' },
      { object: { type: 'mug' }, place: { det: 'the', type: 'drawer', number: 1 }, claim: 'was-not' },
    ]);
  });

  it("a put of the task's object anywhere but the goal receptacle is counted; a put of another object is not", () => {
    expect(truth('workflow: take the mug 1 from the cabinet 2, put it on the countertop 1.')).toMatchObject({
      statesTrue: true,
      putsElsewhere: true,
    });
    expect(truth('avoid: forgetting to put it in the cabinet; the mug 1 was in the cabinet 2.')).toMatchObject({
      putsElsewhere: true,
    });
    expect(
      truth(
        'avoid: putting the apple 1 in the fridge 1 before putting the mug in the diningtable 1; you searched the fridge 1.',
      ),
    ).toMatchObject({ putsElsewhere: false });
    const look = {
      ...scene,
      task: {
        type: 'look_at_obj_in_light' as const,
        goal: 'look at mug under the desklamp',
        object: 'mug',
        lamp: 'desklamp' as const,
      },
    };
    expect(
      skillPlaceTruth('workflow: take the mug 1 from the cabinet 2, put it on the countertop 1.', look).putsElsewhere,
    ).toBe(false);
  });

  it('a denial of the exact starting place is counted; a vague one is not', () => {
    expect(truth('avoid: running out of steps; the mug was not in the cabinet 2.')).toMatchObject({
      deniesTrue: true,
      statesFalse: false,
    });
    expect(truth('avoid: running out of steps; the mug was not in the cabinet.')).toMatchObject({ deniesTrue: false });
    expect(truth('avoid: running out of steps; the mug was not in the drawer 1.')).toMatchObject({ deniesTrue: false });
  });

  it('a skill that does not parse states nothing; the shares count every skill given', () => {
    expect(skillPlaceTruth('workflow: take the mug 1 from', scene)).toMatchObject({
      statesTrue: false,
      statesFalse: false,
    });
    const shares = placeTruthShares([
      { text: 'workflow: take the mug 1 from the cabinet 2.', scene },
      { text: 'workflow: take the mug 2 from the cabinet 2.', scene },
      { text: 'workflow: find the mug, go to the cabinet 2.', scene },
      { text: 'not a skill', scene },
    ]);
    expect(shares).toEqual({ placeTrue: 0.25, placeFalse: 0.25 });
    expect(placeTruthShares([])).toBeNull();
  });

  it("the annotator's skills of explorer episodes are never false", () => {
    const tok = defaultTokenizer();
    const rng = new Rng(7);
    let statesTrue = 0;
    for (let i = 0; i < 60; i++) {
      const s = generateScene('train', i, TINY, 5);
      const { game } = runExplorer(s, rng, { maxSteps: 15, noise: 0.3 });
      const t = skillPlaceTruth(referenceSkill(game.records, s.task, game.won, tok, 48), s);
      expect(t.statesFalse || t.deniesTrue || t.putsElsewhere).toBe(false);
      if (t.statesTrue) statesTrue++;
    }
    expect(statesTrue).toBeGreaterThan(20);
  });

  it('every skill the grammar allows under the places a trajectory observed is never false, about where the object was or goes', () => {
    const tok = defaultTokenizer();
    const grammar = skillGrammar(tok);
    const rng = new Rng(12);
    let statesTrue = 0;
    for (let i = 0; i < 40; i++) {
      const s = generateScene('train', i, TINY, 9);
      const { game } = runExplorer(s, rng, { maxSteps: 15, noise: 0.3 });
      const filter = grammar.entityFilter(
        trajectoryWords({ scene: s, goal: s.task.goal, records: game.records }),
        observedPlaces(game.records, s.task),
      );
      for (let walk = 0; walk < 10; walk++) {
        const ids: number[] = [];
        let prefix = grammar.initial;
        for (;;) {
          const mask = grammar.allowed(prefix, 40, filter);
          const allowed = Array.from({ length: tok.vocabSize }, (_, id) => id).filter(
            (id) => mask[id >>> 5] & (1 << (id & 31)),
          );
          if (allowed.includes(tok.endId) && (allowed.length === 1 || rng.float() < 0.15)) break;
          const id = rng.pick(allowed.filter((a) => a !== tok.endId));
          ids.push(id);
          prefix = grammar.next(prefix, id)!;
        }
        const text = tok.decode(ids);
        expect(parseSkill(text).ok, text).toBe(true);
        const t = skillPlaceTruth(text, s);
        expect(t.statesFalse || t.deniesTrue || t.putsElsewhere, text).toBe(false);
        if (t.statesTrue) statesTrue++;
      }
    }
    expect(statesTrue).toBeGreaterThan(10);
  });
});
