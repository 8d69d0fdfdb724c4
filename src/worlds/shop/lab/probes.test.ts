// The examples the shop's probes (option_copy.ts, skill_probe.ts, reading_ceiling.ts) score are
// what their tables say they are. The probes' runs end to end are src/worlds/shop/lab/probe.test.ts.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../common/rng.ts';
import { CATEGORIES } from '../env/categories.ts';
import { SHOP } from '../env/environment.ts';
import { SELECTED } from '../env/pages.ts';
import { shopTerms } from '../skills/skill.ts';
import { tokenizerOf } from '../../../text/tokenizer.ts';
import { annotateShop } from '../rl/annotator.ts';
import { runShopExplorer } from '../rl/explorer.ts';
import { shopSkillKnowledge } from '../rl/knowledge.ts';
import { chanceOf, fifthEnds, shopChoices, syntheticChoices } from './option_copy.ts';
import { isOptionClick } from './reading_ceiling.ts';
import { skillProbes, swappedSkill } from './skill_probe.ts';
import { SHOP_FACTS } from '../env/facts.ts';

const tok = tokenizerOf(SHOP);
const allowedBy = (mask: Uint32Array, id: number) => ((mask[id >>> 5] >>> (id & 31)) & 1) === 1;

describe('the option-copy probe', () => {
  it('scores a synthetic choice at the value its task line (or its skill block) names, among 5 listed', () => {
    for (const after of [false, true]) {
      const choices = syntheticChoices(tok, 3, 40, 6, 4, after);
      for (const { sequence, listed, answer } of choices) {
        const ids = Array.from(sequence.ids);
        const at = sequence.positions[0];
        expect(ids[at]).toBe(answer);
        expect(listed).toHaveLength(5);
        expect(listed).toContain(answer);
        expect(
          Array.from({ length: tok.vocabSize }, (_, id) => id).filter((id) => allowedBy(sequence.masks, id)),
        ).toEqual([...listed].sort((a, b) => a - b));
        // The naming words stand before the list, or after it in a skill block.
        const list = ids.indexOf(tok.id('SEP'));
        const named = ids.slice(0, at).indexOf(answer);
        expect(named < list).toBe(!after);
        expect(ids.includes(tok.id('<skill>'))).toBe(after);
      }
      expect(chanceOf(choices)).toBeCloseTo(0.2, 12);
    }
  });

  it("splits the shop corpus's option choices into first ones (nothing selected yet) and later ones", () => {
    const selected = tok.encode(SELECTED)[0];
    const [first, later, all] = (['first', 'later', 'all'] as const).map((k) => shopChoices(tok, 7, 20, k));
    expect(first.length).toBeGreaterThan(5);
    expect(later.length).toBeGreaterThan(0);
    expect(all.length).toBe(first.length + later.length);
    for (const [choices, isFirst] of [
      [first, true],
      [later, false],
    ] as const) {
      for (const { sequence, listed, answer } of choices) {
        const at = sequence.positions[0];
        expect(sequence.ids[at]).toBe(answer);
        expect(listed.length).toBeGreaterThanOrEqual(2);
        expect(listed.every((id) => allowedBy(sequence.masks, id))).toBe(true);
        expect(listed).toContain(answer);
        expect(sequence.ids.subarray(0, at).includes(selected)).toBe(!isFirst);
        // An option value: "click [ value ]" of some category's option.
        const value = tok.token(answer);
        expect(
          CATEGORIES.some((c) => c.options.some((o) => o.values.some((v) => v.split(/[\s-]/).includes(value)))),
        ).toBe(true);
      }
    }
  });

  it('trains in five parts that end at the whole run', () => {
    expect(fifthEnds(4000)).toEqual([800, 1600, 2400, 3200, 4000]);
    expect(fifthEnds(3)).toEqual([1, 1, 2, 2, 3]);
  });
});

describe('the skill probe', () => {
  it('swaps the value a skill says an item lacked for another value of that option the page offers', () => {
    const train = SHOP_FACTS.trainDefaults;
    const fit = { length: (t: string) => tok.encode(t).length, maxTokens: train.maxSkillTokens! };
    const rng = new Rng(7);
    let swapped = 0;
    for (let i = 0; i < 40; i++) {
      const scene = SHOP.trainScene(i, 7);
      const first = runShopExplorer(SHOP, scene, rng.fork(`explorer/${i}`), { maxSteps: 15, noise: 0.25 });
      const skill = annotateShop(first.game.records, scene.goal, first.game.won, fit);
      const lacked = shopSkillKnowledge(skill).mustOffer[0];
      if (!lacked) {
        expect(swappedSkill(skill, ['black', 'white'])).toBeNull();
        continue;
      }
      const name = lacked[lacked.length - 1];
      const value = lacked.slice(0, -1).join(' ');
      const option = CATEGORIES.flatMap((c) => c.options).find(
        (o) => o.name === name && o.values.some((v) => shopTerms(v).join(' ') === value),
      );
      // An option whose name is two words ("light color") is not read back from the skill: nothing to swap.
      if (!option) {
        expect(swappedSkill(skill, ['black', 'white', 'warm light', 'daylight'])).toBeNull();
        continue;
      }
      const text = swappedSkill(skill, option.values);
      if (text === null) continue;
      const other = option.values.map((v) => shopTerms(v).join(' ')).find((v) => v !== value)!;
      // The skill still parses, and now says the item lacked the other value.
      expect(shopSkillKnowledge(text).mustOffer[0]).toEqual([...other.split(' '), ...name.split(' ')]);
      expect(text.replace(`the ${other} ${name}`, `the ${value} ${name}`)).toBe(skill);
      // With only the lacked value on the page there is nothing to swap.
      expect(swappedSkill(skill, [option.values.find((v) => shopTerms(v).join(' ') === value)!])).toBeNull();
      swapped++;
    }
    expect(swapped).toBeGreaterThan(3);
  });

  it('scores each decided step at the primed command token, in contexts that differ in the skill block alone', () => {
    const probes = skillProbes(tok, 12);
    expect(probes.length).toBeGreaterThan(3);
    const skillMarker = tok.id('<skill>');
    let blocks = 0;
    for (const p of probes) {
      expect(p.allowed.length).toBeGreaterThanOrEqual(2);
      expect(p.allowed).toContain(p.answer);
      const [own, none, other] = p.sequences;
      for (const s of p.sequences) expect(s.ids[s.positions[0]]).toBe(p.answer);
      expect(none.ids.includes(skillMarker)).toBe(false);
      for (const withSkill of [own, other]) {
        // A block that does not fit is left out: that context is then the plain one.
        const start = withSkill.ids.indexOf(skillMarker);
        if (start < 0) {
          expect(Array.from(withSkill.ids)).toEqual(Array.from(none.ids));
          continue;
        }
        // Before the skill block the contexts are the plain one, token for token (the skill follows the page).
        expect(Array.from(withSkill.ids.subarray(0, start))).toEqual(Array.from(none.ids.subarray(0, start)));
        blocks++;
      }
      expect(p.kind).toMatch(/, after a (won|failed) episode$/);
    }
    expect(blocks).toBeGreaterThan(probes.length);
  });
});

describe('the reading-ceiling probe', () => {
  it('replaces option clicks only: no button, no item tab, no item id', () => {
    expect(isOptionClick('click[navy]')).toBe(true);
    expect(isOptionClick('click[x-large]')).toBe(true);
    const others = ['click[buy now]', 'click[< prev]', 'click[next >]', 'click[back to search]', 'click[b0a1b2c3d4]'];
    for (const c of [...others, 'click[description]', 'click[features]']) expect(isOptionClick(c)).toBe(false);
    expect(isOptionClick('search[navy shirt]')).toBe(false);
  });
});
