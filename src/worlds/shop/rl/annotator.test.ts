import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Rng } from '../../../common/rng.ts';
import { catalogueOf } from '../env/catalogue.ts';
import { satisfies } from '../env/expert.ts';
import { ShopGame } from '../env/game.ts';
import type { ShopScene } from '../env/scene.ts';
import { evalShopScenes, generateShopScene, validationShopScenes, type ShopSplit } from '../env/splits.ts';
import { MARKERS } from '../../../text/markers.ts';
import { splitPieces } from '../../../text/pieces.ts';
import { SHOP_SKILL_WORDS } from '../skills/skill.ts';
import { shopSkillGrammar } from '../skills/grammar.ts';
import { parseShopSkill } from '../skills/parser.ts';
import { isDegenerateSkill } from '../../../text/skill_repeats.ts';
import { Tokenizer } from '../../../text/tokenizer.ts';
import { annotateShop } from './annotator.ts';
import { itemPage, listedItems, resultsPageNumber, shopTrajectoryWords } from './observed.ts';
import { shopSkillTruth } from './skill_truth.ts';
import { TINY_SHOP, WEBSHOP } from '../env/scale.ts';

// The hand-worked games below are WebShop's pages (10 results a page, the instruction on every page).
const SCALE = WEBSHOP;

const product = (scene: ShopScene, id: string) =>
  catalogueOf(scene.catalogue).find((p) => p.id.toLowerCase() === id.toLowerCase())!;
const listed = (game: ShopGame) =>
  game
    .admissibleCommands()
    .filter((c) => /^click\[b0/.test(c))
    .map((c) => c.slice(6, -1));

function expertGame(scene: ShopScene): ShopGame {
  const game = new ShopGame(scene, { scale: SCALE });
  for (const action of game.expertPlan()) game.step(action);
  return game;
}

interface Failure {
  /** The actions from the search page; FIRST stands for the first item the page lists. */
  actions: (game: ShopGame) => string[];
  /** What to play after them until the game ends. */
  pad: (game: ShopGame) => string;
  /** How its skill starts. */
  starts: string;
}

const invalid = () => 'click[< prev]';

/** Deliberate failures, each from the search page. */
const FAILURES: Record<string, Failure> = {
  'buys without choosing options': {
    actions: (g) => {
      const plan = g.expertPlan();
      const opened = plan.findIndex((a) => /^click\[b0/.test(a));
      return [...plan.slice(0, opened + 1), 'click[buy now]'];
    },
    pad: invalid,
    starts: 'avoid: buying before choosing the',
  },
  'chooses another value': {
    actions: (g) => {
      const plan = g.expertPlan();
      const opened = plan.findIndex((a) => /^click\[b0/.test(a));
      const item = product(g.scene, plan[opened].slice(6, -1));
      const [name, values] = Object.entries(item.options)[0];
      return [
        ...plan.slice(0, opened + 1),
        `click[${values.find((v) => v !== g.scene.goal.options[name])!}]`,
        'click[buy now]',
      ];
    },
    pad: invalid,
    starts: 'avoid: choosing the',
  },
  'buys another type': {
    actions: (g) => [
      `search[${g.scene.goal.typeName === 'desk lamp' ? 'hiking boots' : 'desk lamp'}]`,
      'click[FIRST]',
      'click[buy now]',
    ],
    pad: invalid,
    starts: 'avoid: buying an item whose title lacks',
  },
  'pages without opening': {
    actions: (g) => [g.expertPlan()[0], 'click[next >]', 'click[next >]'],
    pad: (g) => (g.admissibleCommands().includes('click[next >]') ? 'click[next >]' : 'click[< prev]'),
    starts: 'avoid: clicking next instead of searching again',
  },
  'never searches': { actions: () => [], pad: invalid, starts: 'avoid: invalid actions; nothing happens;' },
  'opens a fitting item and never buys': {
    actions: (g) => g.expertPlan().slice(0, -1),
    pad: (g) => g.records.at(-1)!.action,
    starts: 'avoid: forgetting to buy now;',
  },
};

function playFailure(scene: ShopScene, failure: Failure, options: { maxSteps?: number } = {}): ShopGame {
  const game = new ShopGame(scene, { ...options, scale: SCALE });
  for (const action of failure.actions(game))
    if (!game.done) game.step(action === 'click[FIRST]' ? `click[${listed(game)[0]}]` : action);
  while (!game.done) game.step(failure.pad(game));
  return game;
}

/** The words every page and action of some games showed: the shop vocabulary for these tests. */
function tokenizerOver(games: readonly ShopGame[]): Tokenizer {
  const words = new Set<string>(SHOP_SKILL_WORDS);
  for (const game of games)
    for (const r of game.records)
      for (const p of splitPieces(`${r.observation} ${r.action}`)) words.add(p).add(p.toLowerCase());
  for (const m of MARKERS) words.delete(m);
  words.delete('\n');
  return new Tokenizer([...MARKERS, ...[...words].sort()]);
}

const SPLITS: Record<string, ShopScene[]> = {
  train: Array.from({ length: 25 }, (_, i) => generateShopScene('train', i, 0, SCALE)),
  seen: evalShopScenes('seen', 25, SCALE),
  unseen: evalShopScenes('unseen', 25, SCALE),
  validation: validationShopScenes(25, SCALE),
};

describe('the shop annotator', () => {
  it('writes the procedure of a hand-worked expert game and the mistakes of its failures', () => {
    const scene = generateShopScene('train', 0, 0, SCALE);
    expect(scene.goal.instruction).toBe(
      'i need a casual crossbody bag, water resistant, in grey, size large, and price lower than 110.00 dollars',
    );
    const won = expertGame(scene);
    expect(annotateShop(won.records, scene.goal, true)).toBe(
      'workflow: search for casual water resistant crossbody bag, click an item whose title says casual crossbody bag priced under 110 dollars, ' +
        'choose the grey color and the large size, buy now. the item cost 83. 16 dollars. the price bound was 110 dollars.',
    );
    const noOptions = playFailure(scene, FAILURES['buys without choosing options']);
    expect(annotateShop(noOptions.records, scene.goal, false)).toBe(
      'avoid: buying before choosing the grey color and the large size; the item offered the grey color and the large size; ' +
        'the price bound was 110 dollars. choose the grey color and the large size before buying.',
    );
    const otherType = playFailure(scene, FAILURES['buys another type']);
    expect(annotateShop(otherType.records, scene.goal, false)).toMatch(
      /^avoid: buying an item whose title lacks crossbody bag; the item was titled [a-z' ]+ desk lamp; the price bound was 110 dollars\.$/,
    );
    // The step budget cut: facts go first, then signs after the first.
    const cut = annotateShop(noOptions.records, scene.goal, false, {
      length: (t) => splitPieces(t).length,
      maxTokens: 30,
    });
    expect(cut).toBe(
      'avoid: buying before choosing the grey color and the large size; the item offered the grey color and the large size.',
    );
    const length = (t: string) => splitPieces(t).length;
    const shortWorkflow =
      'workflow: search for casual water resistant crossbody bag, click an item, choose the grey color and the large size, buy now.';
    const withTitle = shortWorkflow.replace('click an item,', 'click an item whose title says casual crossbody bag,');
    expect(length(withTitle)).toBe(32);
    expect(annotateShop(won.records, scene.goal, true, { length, maxTokens: 32 })).toBe(withTitle);
    expect(annotateShop(won.records, scene.goal, true, { length, maxTokens: 31 })).toBe(shortWorkflow);
    expect(annotateShop(won.records, scene.goal, true, { length, maxTokens: 5 })).toBe(shortWorkflow);
    expect(annotateShop(noOptions.records, scene.goal, false, { length, maxTokens: 5 })).toBe(
      'avoid: buying before choosing the grey color and the large size.',
    );
    // Cut to the bone, a skill keeps the words that make it usable: "avoid: invalid actions." alone has too few.
    const idle = playFailure(scene, FAILURES['never searches']);
    expect(annotateShop(idle.records, scene.goal, false, { length, maxTokens: 5 })).toBe(
      'avoid: invalid actions; nothing happens.',
    );
  });

  it('says "click next" when the item was on a later page', () => {
    const index = Array.from({ length: 200 }, (_, i) => i).find((i) =>
      new ShopGame(generateShopScene('train', i, 0, SCALE), { scale: SCALE }).expertPlan().includes('click[next >]'),
    )!;
    const scene = generateShopScene('train', index, 0, SCALE);
    expect(scene.goal.typeName).toBe('tote bag');
    expect(annotateShop(expertGame(scene).records, scene.goal, true)).toBe(
      'workflow: search for laptop compartment tote bag, click next, click an item whose title says tote bag priced under 40 dollars, ' +
        'choose the brown color and the medium size, buy now. the item cost 18. 55 dollars. the price bound was 40 dollars.',
    );
  });

  it('reads what the pages showed: listed items, the page number, the item page and its chosen options', () => {
    const scene = generateShopScene('train', 0, 0, SCALE);
    const game = expertGame(scene);
    const [, results, opened, , chosen] = game.records;
    expect(resultsPageNumber(results)).toBe(1);
    expect(listedItems(results)[0]).toEqual({
      id: 'B0H0P5XSUI',
      title: 'Oakhurst Casual Polyester Crossbody Bag',
      cents: 8316,
    });
    expect(listedItems(results).length).toBe(10);
    expect(itemPage(opened)).toMatchObject({ title: 'Oakhurst Casual Polyester Crossbody Bag', cents: 8316 });
    expect(itemPage(opened)!.optionParts).toEqual([
      'color',
      'black',
      'brown',
      'navy',
      'grey',
      'green',
      'size',
      'small',
      'medium',
      'large',
    ]);
    expect([...itemPage(chosen)!.selected]).toEqual([
      ['color', 'grey'],
      ['size', 'large'],
    ]);
    expect(itemPage(results)).toBeNull();
    expect(listedItems(opened)).toEqual([]);
  });

  for (const [split, scenes] of Object.entries(SPLITS)) {
    it(`annotates expert games and deliberate failures of ${split} games: each parses, decodes under the mask, and is true of the goal`, () => {
      const wins = scenes.map(expertGame);
      const failures = scenes.flatMap((scene) =>
        Object.values(FAILURES).map((f) => ({ scene, f, game: playFailure(scene, f) })),
      );
      const tok = tokenizerOver([...wins, ...failures.map((f) => f.game)]);
      const grammar = shopSkillGrammar(tok);
      const check = (game: ShopGame, won: boolean) => {
        const text = annotateShop(game.records, game.scene.goal, won);
        expect(annotateShop(game.records, game.scene.goal, won)).toBe(text);
        expect(parseShopSkill(text).reason, text).toBe('');
        expect(isDegenerateSkill(text), text).toBe(false);
        const truth = shopSkillTruth(text, game.scene.goal);
        expect(truth.falseClaims, text).toBe(0);
        expect(truth.trueClaims, text).toBeGreaterThan(0);
        // Decodes under the grammar's mask limited to the trajectory's own words.
        const filter = grammar.entityFilter(shopTrajectoryWords(game.records));
        const ids = tok.encode(text);
        expect(tok.unknownPieces(text)).toEqual([]);
        const masks = grammar.skillMasks(ids, 200, filter);
        [...ids, tok.endId].forEach((id, k) => {
          expect((masks[k * grammar.maskWords + (id >>> 5)] >>> (id & 31)) & 1, `${text} @${k}`).toBe(1);
        });
        return text;
      };
      for (const game of wins) {
        expect(game.won).toBe(true);
        expect(check(game, true)).toMatch(/^workflow: search for .*, buy now\./);
      }
      for (const { game, f } of failures) {
        expect(game.won).toBe(false);
        expect(
          check(game, false).startsWith(f.starts),
          `${game.records.map((r) => r.action).join(' | ')} -> ${check(game, false)}`,
        ).toBe(true);
      }
    });
  }

  it('names a purchase over the bound, an item that lacked an option, and running out of steps', () => {
    const buy = (scene: ShopScene, id: string) =>
      annotateShop(
        playFailure(scene, {
          actions: () => [`search[${scene.goal.typeName}]`, `click[${id}]`, 'click[buy now]'],
          pad: invalid,
          starts: '',
        }).records,
        scene.goal,
        false,
      );
    let overBound = 0;
    let lacked = 0;
    for (let i = 0; i < 30; i++) {
      const scene = generateShopScene('train', i, 0, SCALE);
      const game = new ShopGame(scene, { scale: SCALE });
      game.step(`search[${scene.goal.typeName}]`);
      const sameType = listed(game).filter((id) => product(scene, id).nouns.join(' ') === scene.goal.typeName);
      const pricey = sameType.find((id) => product(scene, id).priceCents > scene.goal.priceUpperCents);
      if (pricey) {
        overBound++;
        const bound = scene.goal.priceUpperCents / 100;
        expect(buy(scene, pricey)).toMatch(
          new RegExp(
            `^avoid: buying an item priced over ${bound} dollars; the item cost [0-9]+\\. [0-9]+ dollars; the price bound was ${bound} dollars\\.$`,
          ),
        );
      }
      const lacking = sameType.find((id) => {
        const p = product(scene, id);
        return (
          p.priceCents <= scene.goal.priceUpperCents &&
          scene.goal.attributes.every((a) => p.attributes.includes(a)) &&
          !satisfies(p, scene.goal)
        );
      });
      if (
        lacking &&
        Object.entries(scene.goal.options).some(([name, v]) => !product(scene, lacking).options[name].includes(v))
      ) {
        lacked++;
        expect(buy(scene, lacking)).toMatch(
          /^avoid: buying; the item lacked the [a-z0-9 -]+; the price bound was [0-9]+ dollars\.$/,
        );
      }
    }
    expect(overBound).toBeGreaterThan(0);
    expect(lacked).toBeGreaterThan(0);
    const scene = generateShopScene('train', 3, 0, SCALE);
    const wander = playFailure(
      scene,
      { actions: () => [`search[${scene.goal.typeName} leather]`, 'click[FIRST]'], pad: invalid, starts: '' },
      { maxSteps: 4 },
    );
    expect(annotateShop(wander.records, scene.goal, false)).toMatch(
      /^avoid: (running out of steps|forgetting to buy now); the item was titled /,
    );
    const idle = playFailure(scene, { actions: () => [], pad: invalid, starts: '' }, { maxSteps: 2 });
    expect(annotateShop(idle.records, scene.goal, false)).toBe(
      'avoid: forgetting to search for mesh hiking boots; the price bound was 140 dollars.',
    );
  });

  it("annotates random play: every skill parses, uses only the trajectory's words and claims nothing false of the goal", () => {
    fc.assert(
      // Both scales: the tiny shop's results pages list 5 items and print no instruction.
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom<ShopSplit>('train', 'seen', 'unseen'),
        fc.constantFrom(TINY_SHOP, WEBSHOP),
        (seed, split, scale) => {
          const rng = new Rng(seed);
          const scene = generateShopScene(split, rng.int(50), 0, scale);
          const words = scene.goal.instruction.split(' ');
          const game = new ShopGame(scene, { scale });
          while (!game.done) {
            const query = Array.from({ length: 1 + rng.int(4) }, () => rng.pick(words)).join(' ');
            const choices = [
              ...game.admissibleCommands(),
              `search[${query}]`,
              ...(rng.float() < 0.3 ? game.expertPlan().slice(0, 1) : []),
            ];
            game.step(rng.pick(choices));
          }
          const text = annotateShop(game.records, scene.goal, game.won);
          const check = parseShopSkill(text);
          expect(check.reason, text).toBe('');
          const tok = tokenizerOver([game]);
          const grammar = shopSkillGrammar(tok);
          expect(
            () => grammar.skillMasks(tok.encode(text), 200, grammar.entityFilter(shopTrajectoryWords(game.records))),
            text,
          ).not.toThrow();
          expect(shopSkillTruth(text, scene.goal).falseClaims, text).toBe(0);
        },
      ),
      { numRuns: 40 },
    );
  });
});
