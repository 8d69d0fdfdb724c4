// The helpers a world's environment is built with: one environment per scale, and the fields its facts state.
import { describe, expect, it } from 'vitest';
import { factsFields, onePerScale } from './environment.ts';
import type { WorldFacts } from './world_facts.ts';

describe("a world's environment", () => {
  it('is built once per scale, and again for another', () => {
    const builds: string[] = [];
    const atScale = onePerScale((scale: string) => {
      builds.push(scale);
      return { scale };
    });
    const tiny = atScale('tiny');
    expect(atScale('tiny')).toBe(tiny);
    expect(atScale('large')).not.toBe(tiny);
    expect(builds).toEqual(['tiny', 'large']);
  });

  it('states its step budget, task types and eval sets as its facts say them', () => {
    const facts = { maxSteps: 7, taskTypes: ['a', 'b'], evalCounts: { seen: 3, unseen: 4 } } as Partial<WorldFacts>;
    expect(factsFields(facts as WorldFacts)).toEqual({
      defaultMaxSteps: 7,
      taskTypes: ['a', 'b'],
      evalCounts: { seen: 3, unseen: 4 },
    });
  });
});
