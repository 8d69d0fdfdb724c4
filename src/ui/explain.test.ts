// The sentence that says which presets of a world start from a trained policy follows the shipped lists, and the
// guide's game tells of every world.
import { describe, expect, it } from 'vitest';
import { factsOf, theWorld } from '../worlds/facts.ts';
import { ENVIRONMENT_NAMES } from '../worlds/names.ts';
import { GUIDE, shippedWarmStartsSentence } from './explain.ts';

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

describe("the guide's game", () => {
  it('tells what the agent does in every world, each world in its own sentence', () => {
    const game = GUIDE.find((g) => g.title === 'The game')!.text;
    for (const name of ENVIRONMENT_NAMES) {
      const { guide } = factsOf(name).words;
      expect(guide.startsWith(`In ${theWorld(name)} `), name).toBe(true);
      expect(game).toContain(guide);
    }
  });
});
