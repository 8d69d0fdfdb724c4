import { describe, expect, it } from 'vitest';
import { environmentOf } from '../worlds/environments.ts';
import { worldNames } from '../worlds/names.ts';
import {
  episodeSequence,
  insertSkill,
  policyContext,
  SKILL_RESERVE,
  skillSlotLength,
  slotTokens,
  stepSequence,
  type EpisodeText,
} from './prompts.ts';
import { defaultTokenizer, tokenizerOf } from './tokenizer.ts';

const tok = defaultTokenizer();
const text = (ids: ArrayLike<number>) => tok.decode(ids);
const SKILL = 'workflow: find the mug, take it, heat it with the microwave 1.';
const INTRO = '<skill> refer to this skill when deciding what action to take:';

const episode: EpisodeText = {
  goal: 'put a hot mug in cabinet',
  opening: 'You are in the middle of a room. Looking quickly around you, you see a cabinet 1 and a countertop 1.',
  steps: [
    { action: 'go to countertop 1', observation: 'On the countertop 1, you see a mug 1.', valid: true },
    { action: 'take mug 1 from cabinet 1', observation: 'Nothing happens.', valid: false },
    { action: 'take mug 1 from countertop 1', observation: 'You pick up the mug 1.', valid: true },
  ],
};

describe('slotTokens', () => {
  it('is exactly the slot long: the frame, the skill cut to fit, full stops, the end token', () => {
    const skillLength = tok.encode(SKILL).length;
    const slot = 13 + skillLength + 3;
    const full = slotTokens(tok, SKILL, slot);
    expect(full).toHaveLength(slot);
    const dot = tok.encode('.')[0];
    // The frame: <skill> and the intro's 11 tokens before the text, <end> after it.
    expect(text(full.slice(0, 12 + skillLength))).toBe(`${INTRO} ${SKILL}`);
    expect(full.slice(12 + skillLength)).toEqual([dot, dot, dot, tok.endId]);
    expect(slotTokens(tok, null, 16).slice(12)).toEqual([dot, dot, dot, tok.endId]);
    expect(text(slotTokens(tok, SKILL, 16))).toBe(`${INTRO} workflow: find <end>`);
    expect(slotTokens(tok, null, 13)).toHaveLength(13);
    expect(() => slotTokens(tok, null, 12)).toThrow(/slot of 12 tokens cannot hold its frame of 13/);
  });

  it("fits every world's frame in the room a skill block keeps besides its text", () => {
    for (const name of worldNames()) {
      const worldTok = tokenizerOf(environmentOf(name));
      expect(slotTokens(worldTok, null, SKILL_RESERVE + 1), name).toHaveLength(SKILL_RESERVE + 1);
    }
    expect(skillSlotLength({ skillSlot: 1, maxSkillTokens: 48 })).toBe(SKILL_RESERVE + 48);
    expect(skillSlotLength({ skillSlot: 0, maxSkillTokens: 48 })).toBe(0);
  });
});

describe('a context with a skill slot', () => {
  const slot = SKILL_RESERVE + 32;

  it('holds the empty slot after the task line, and a skill fills it without moving a position', () => {
    const plain = episodeSequence(tok, episode, slot);
    const bare = episodeSequence(tok, episode);
    expect(plain.ids.length).toBe(bare.ids.length + slot);
    expect(plain.skillAt).toBe(bare.skillAt);
    expect(plain.skillLength).toBe(slot);
    expect(text(plain.ids.subarray(plain.skillAt, plain.skillAt + slot))).toBe(text(slotTokens(tok, null, slot)));
    const filled = insertSkill(tok, plain, SKILL);
    expect(filled.ids.length).toBe(plain.ids.length);
    expect(Array.from(filled.commandPositions)).toEqual(Array.from(plain.commandPositions));
    expect(Array.from(filled.plainToSkill)).toEqual(Array.from(plain.ids, (_, i) => i));
    const differ = Array.from(plain.ids.keys()).filter((i) => plain.ids[i] !== filled.ids[i]);
    expect(Math.min(...differ)).toBeGreaterThanOrEqual(plain.skillAt);
    expect(Math.max(...differ)).toBeLessThan(plain.skillAt + slot);
    expect(text(filled.ids.subarray(filled.skillAt, filled.skillAt + slot))).toBe(text(slotTokens(tok, SKILL, slot)));
    expect(() => insertSkill(tok, filled, SKILL)).toThrow(/already/);
  });

  it('takes the slot from the budget first: the same history and length with a skill and without', () => {
    for (const skillAfterPage of [false, true]) {
      for (const maxLen of [512, 110, 90]) {
        const options = { history: 3, maxLen, skillSlot: slot, skillAfterPage };
        const without = policyContext(tok, episode, options);
        const withSkill = policyContext(tok, episode, { ...options, skill: SKILL });
        expect(withSkill.length).toBe(without.length);
        const at = without.indexOf(tok.id('<skill>'));
        expect(at).toBeGreaterThan(0);
        expect(text(without.slice(at, at + slot))).toBe(text(slotTokens(tok, null, slot)));
        expect(withSkill.slice(0, at)).toEqual(without.slice(0, at));
        expect(withSkill.slice(at + slot)).toEqual(without.slice(at + slot));
        // Without the slot, the same budget less the slot's length keeps the same history.
        const bare = policyContext(tok, episode, { history: 3, maxLen: maxLen - slot, skillAfterPage });
        expect([...without.slice(0, at), ...without.slice(at + slot)]).toEqual(bare);
      }
    }
  });

  it('agrees with the whole-episode sequence when nothing is cut, and a step sequence finds its slot', () => {
    const seq = episodeSequence(tok, episode, slot);
    for (let t = 0; t < episode.steps.length; t++) {
      const step = stepSequence(tok, episode, t, { history: Infinity, maxLen: 512, skillSlot: slot });
      expect(Array.from(step.ids)).toEqual(Array.from(seq.ids.subarray(0, seq.commandSpans[2 * t + 1])));
      expect([step.skillAt, step.skillLength]).toEqual([seq.skillAt, slot]);
    }
  });
});
