import { describe, expect, it } from 'vitest';
import { generateShopScene } from '../env/splits.ts';
import { shopSkillTruth, shopTruthShares } from './skill_truth.ts';
import { WEBSHOP } from '../env/scale.ts';

// The hand-worked games below are WebShop's pages (10 results a page, the instruction on every page).
const SCALE = WEBSHOP;

// "i need a casual crossbody bag, water resistant, in grey, size large, and price lower than 110.00 dollars"
const goal = generateShopScene('train', 0, 0, SCALE).goal;
// "i need a ... lamp ..., with warm light": an option whose value and name share a word.
const lampGoal = {
  ...goal,
  attributes: ['metal'],
  typeName: 'desk lamp',
  options: { color: 'gold', 'light color': 'warm light' },
  priceUpperCents: 4000,
};

describe('shop skill truth', () => {
  it('checks options, title words and the price bound of a workflow against the goal', () => {
    expect(goal.attributes).toEqual(['casual', 'water resistant']);
    expect(goal.options).toEqual({ color: 'grey', size: 'large' });
    const right =
      'workflow: search for bag, click an item whose title says casual crossbody bag priced under 110 dollars, choose the grey color and the large size, buy now.';
    expect(shopSkillTruth(right, goal)).toEqual({ trueClaims: 4, falseClaims: 0 });
    // A wrong colour, a brand in the title, another bound: three false claims; the search words claim nothing.
    const wrong =
      'workflow: search for red leather things, click an item whose title says oakhurst crossbody bag, choose the black color and the large, buy now. the price bound was 100 dollars.';
    expect(shopSkillTruth(wrong, goal)).toEqual({ trueClaims: 1, falseClaims: 3 });
    expect(shopSkillTruth('workflow: choose the warm light color and the gold, buy now.', lampGoal)).toEqual({
      trueClaims: 2,
      falseClaims: 0,
    });
    expect(shopSkillTruth('workflow: choose the warm light light color, buy now.', lampGoal)).toEqual({
      trueClaims: 0,
      falseClaims: 1,
    });
  });

  it("reads a mistake's first half as what was not wanted and its second half as what was", () => {
    expect(shopSkillTruth('avoid: choosing the black color instead of choosing the grey color.', goal)).toEqual({
      trueClaims: 2,
      falseClaims: 0,
    });
    expect(shopSkillTruth('avoid: choosing the grey color instead of choosing the black color.', goal)).toEqual({
      trueClaims: 0,
      falseClaims: 2,
    });
    expect(
      shopSkillTruth('avoid: buying an item whose title lacks water resistant; the price bound was 110 dollars.', goal),
    ).toEqual({ trueClaims: 2, falseClaims: 0 });
    expect(shopSkillTruth('avoid: buying an item whose title says leather tote bag.', goal)).toEqual({
      trueClaims: 1,
      falseClaims: 0,
    });
    expect(shopSkillTruth('avoid: buying an item whose title says casual crossbody bag.', goal)).toEqual({
      trueClaims: 0,
      falseClaims: 1,
    });
    expect(
      shopSkillTruth(
        'avoid: buying before choosing the large size; the instruction asked for water resistant and grey color.',
        goal,
      ),
    ).toEqual({ trueClaims: 3, falseClaims: 0 });
    expect(
      shopSkillTruth('avoid: forgetting to choose the small size; the item offered the small size.', goal),
    ).toEqual({ trueClaims: 0, falseClaims: 1 });
    // Nothing claimed: no goal words named, or no skill at all.
    expect(shopSkillTruth('avoid: invalid actions; nothing happens after choosing the black color.', goal)).toEqual({
      trueClaims: 0,
      falseClaims: 0,
    });
    expect(shopSkillTruth('choose the grey color', goal)).toEqual({ trueClaims: 0, falseClaims: 0 });
  });

  it('gives the shares of skills with a true and with a false claim, and the true share of all claims', () => {
    const skills = [
      { text: 'workflow: choose the grey color and the large size, buy now.', goal },
      { text: 'workflow: choose the black color and the large size, buy now.', goal },
      { text: 'avoid: invalid actions; nothing happens after clicking next.', goal },
      { text: 'not a skill', goal },
    ];
    expect(shopTruthShares(skills)).toEqual({ claimTrue: 0.5, claimFalse: 0.25, trueShare: 3 / 4 });
    expect(shopTruthShares(skills.slice(2))).toEqual({ claimTrue: 0, claimFalse: 0, trueShare: null });
    expect(shopTruthShares([])).toBeNull();
  });
});
