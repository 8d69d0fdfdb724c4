import { describe, expect, it } from 'vitest';
import { skillKindOf } from './skill_kind.ts';
import { parseSkill } from '../worlds/household/skills/parser.ts';
import { parseShopSkill } from '../worlds/shop/skills/parser.ts';

describe('a skill kind', () => {
  it('is named by the first word, in any case, whether or not the rest parses', () => {
    expect(skillKindOf('workflow: go to the countertop 1, take the mug 1.')).toBe('workflow');
    expect(skillKindOf('Avoid: buying; the item lacked the navy color.')).toBe('avoid');
    expect(skillKindOf('\nworkflow')).toBe('workflow');
    expect(skillKindOf('avoid avoid avoid')).toBe('avoid');
    expect(skillKindOf('the mug was in the cabinet 2.')).toBeNull();
    expect(skillKindOf('workflows: no')).toBeNull();
    expect(skillKindOf('')).toBeNull();
  });

  it("is the one both worlds' parsers report", () => {
    for (const text of [
      'workflow: search for cotton shirt, buy now.',
      'avoid: buying; the item lacked the navy color.',
      'avoid',
      'workflow: x',
      'hello there',
    ]) {
      expect(parseShopSkill(text).kind).toBe(skillKindOf(text));
      expect(parseSkill(text).kind).toBe(skillKindOf(text));
    }
  });
});
