// The sentence that says which presets of a world start from a trained policy follows the shipped lists.
import { describe, expect, it } from 'vitest';
import { SHIPPED_WARM_STARTS } from '../model/config.ts';
import { shippedWarmStartsSentence } from './explain.ts';

describe('shipped warm starts, in words', () => {
  it('names the presets of each world that ship one, the world where asked, and says so when none does', () => {
    expect(SHIPPED_WARM_STARTS.household).toEqual(['micro', 'tiny']);
    expect(shippedWarmStartsSentence('household')).toBe('The micro and tiny presets start from a trained policy.');
    expect(shippedWarmStartsSentence('household', true)).toBe(
      'The household’s micro and tiny presets start from a trained policy.',
    );
    const shop = shippedWarmStartsSentence('shop');
    if (SHIPPED_WARM_STARTS.shop.length === 0)
      expect(shop).toBe(
        'No preset of the shop ships a warm start yet: each starts from seeded random weights and plays at random for a long time.',
      );
    else
      expect(shop).toBe(
        `The shop’s ${SHIPPED_WARM_STARTS.shop.join(' and ')} preset${SHIPPED_WARM_STARTS.shop.length > 1 ? 's start' : ' starts'} from a trained policy.`,
      );
  });
});
