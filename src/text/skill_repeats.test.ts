import { describe, expect, it } from 'vitest';
import { isDegenerateSkill, repeatedPhrase } from './skill_repeats.ts';

describe('skills that repeat a phrase', () => {
  it('finds a phrase repeated right after itself, joined by punctuation, "and" or nothing', () => {
    expect(repeatedPhrase('workflow: open the drawer 1, open the drawer 1, open the drawer 1.')).toBe(
      'open the drawer 1',
    );
    expect(repeatedPhrase('workflow: put the mug 1 in the bed 1 and the bed 1 and the bed 1.')).toBe('the bed 1');
    expect(repeatedPhrase('avoid: taking it; the mug was in the cabinet 1; the mug was in the cabinet 1.')).toBe(
      'the mug was in the cabinet 1',
    );
    expect(repeatedPhrase('workflow: take it take it.')).toBe('take it');
    // A repeated sentence: the first copy found runs from inside the first sentence into the second.
    expect(isDegenerateSkill('workflow: go to the sofa 1. the mug was on the sofa 1. the mug was on the sofa 1.')).toBe(
      true,
    );
    expect(
      isDegenerateSkill('workflow: open the drawer 1, close the drawer 1, open the drawer 1, close the drawer 1.'),
    ).toBe(true);
  });

  it('leaves ordinary skills alone, phrases that recur apart included', () => {
    const ordinary = [
      'workflow: find the mug, take it, go to the microwave 1, heat it, put it in the cabinet 2. the mug was on the countertop 1.',
      'workflow: go to the cabinet 1, open the cabinet 1, take the mug 1 from the cabinet 1, put it in the cabinet 2.',
      'avoid: opening the fridge 1 twice; the apple was in the fridge 1.',
      'avoid: opening the fridge 1; the fridge 1 was empty.',
      'workflow: put it in the drawer 1. the drawer 1 was empty.',
      'avoid: searching the same drawer twice; you searched the drawer 1 and the drawer 2.',
      '',
    ];
    for (const text of ordinary) expect(repeatedPhrase(text), text).toBeNull();
    expect(isDegenerateSkill(ordinary[0])).toBe(false);
  });

  it('is case-insensitive and needs two words at least', () => {
    expect(repeatedPhrase('Workflow: Open The Drawer 1, open the drawer 1.')).toBe('open the drawer 1');
    expect(repeatedPhrase('workflow: find the the mug.')).toBeNull();
  });
});
