// The sentence that says which presets of a world start from a trained policy follows the shipped lists.
import { describe, expect, it } from 'vitest';
import { factsOf } from '../worlds/facts.ts';
import { shippedWarmStartsSentence } from './explain.ts';

describe('shipped warm starts, in words', () => {
  it('names the presets of each world that ship one, the world where asked, and says so when none does', () => {
    expect(factsOf('household').shippedWarmStarts).toEqual(['micro', 'tiny']);
    expect(shippedWarmStartsSentence('household')).toBe('The micro and tiny presets start from a trained policy.');
    expect(shippedWarmStartsSentence('household', true)).toBe(
      'The household’s micro and tiny presets start from a trained policy.',
    );
    const shop = shippedWarmStartsSentence('shop');
    const shipped = factsOf('shop').shippedWarmStarts;
    if (shipped.length === 0)
      expect(shop).toBe(
        'No preset of the shop ships a warm start yet: each starts from seeded random weights and plays at random for a long time.',
      );
    else
      expect(shop).toBe(
        `The shop’s ${shipped.join(' and ')} preset${shipped.length > 1 ? 's start' : ' starts'} from a trained policy.`,
      );
  });
});
