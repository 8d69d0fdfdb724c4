import { describe, expect, it } from 'vitest';
import { SEARCHQA } from '../env/environment.ts';
import { qaSkillTruth, qaTruthShares } from './skill_truth.ts';

const scene = SEARCHQA.sceneFromJson(
  '{"version":1,"encyclopedia":{"seed":1},"question":{"kind":"capital-of-birth-country","subjects":["Marno Nular"]}}',
);
const right = scene.question.answer;

describe('search-QA skill truth', () => {
  it('checks a fact against the encyclopedia’s passage on its entity and relation', () => {
    expect(qaSkillTruth('avoid: running out of steps; Marno Nular was born in 1847 in Thamia.', scene)).toEqual({
      trueClaims: 1,
      falseClaims: 0,
    });
    expect(qaSkillTruth('avoid: running out of steps; Marno Nular was born in 1848 in Thamia.', scene)).toEqual({
      trueClaims: 0,
      falseClaims: 1,
    });
    expect(qaSkillTruth(`workflow: search Thamia capital. the capital of Thamia is ${right}.`, scene).trueClaims).toBe(
      1,
    );
    expect(qaSkillTruth('workflow: search Thamia capital. the capital of Thamia is Bemena.', scene).falseClaims).toBe(
      1,
    );
    expect(qaSkillTruth('workflow: search Thamia capital. Thamia is a city in Thamia.', scene).falseClaims).toBe(1);
  });

  it("reads an answer as claimed right in a workflow and a mistake's second half, wrong in its first half", () => {
    expect(qaSkillTruth(`workflow: search Thamia capital, then answer ${right}.`, scene)).toEqual({
      trueClaims: 1,
      falseClaims: 0,
    });
    expect(qaSkillTruth('workflow: search Thamia capital, then answer Thamia.', scene).falseClaims).toBe(1);
    expect(qaSkillTruth(`avoid: answering Thamia instead of answering ${right}.`, scene)).toEqual({
      trueClaims: 2,
      falseClaims: 0,
    });
    expect(qaSkillTruth(`avoid: answering ${right} before searching Thamia capital.`, scene).falseClaims).toBe(1);
    expect(qaSkillTruth(`avoid: forgetting to answer ${right}.`, scene).trueClaims).toBe(1);
    // Searches and steps by role claim nothing; a text that does not parse claims nothing.
    expect(qaSkillTruth('workflow: search Bemena city, then answer the city.', scene)).toEqual({
      trueClaims: 0,
      falseClaims: 0,
    });
    expect(qaSkillTruth('answer it', scene)).toEqual({ trueClaims: 0, falseClaims: 0 });
  });

  it('gives the shares of skills with a true claim and with a false one', () => {
    expect(qaTruthShares([])).toBeNull();
    expect(
      qaTruthShares([
        { text: `workflow: search Thamia capital, then answer ${right}.`, scene },
        { text: 'workflow: search Thamia capital, then answer Thamia.', scene },
        { text: 'avoid: running out of steps.', scene },
        { text: `avoid: answering Thamia instead of answering Bemena.`, scene },
      ]),
    ).toEqual({ placeTrue: 0.5, placeFalse: 0.5 });
  });
});
