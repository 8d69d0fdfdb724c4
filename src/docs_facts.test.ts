// The numbers the documents state that the code defines, read from the code: the presets' sizes and parameter
// counts, the worlds' vocabularies, the shop's scales, catalogue, step budget and training settings, the
// household's room scales, eval sets and seeds, and the constants the loss's description names. Each fact is
// found by the sentence that states it, so a document that drops or rewords it fails as one that gets it wrong;
// src/docs_names.test.ts holds the names and lists the documents give.
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT_NAMES, type EnvironmentName } from './worlds/names.ts';
import { EVAL_SEED } from './env/environment.ts';
import { environmentOf } from './worlds/environments.ts';
import { DEFAULT_MAX_STEPS } from './worlds/household/env/game.ts';
import { EVAL_COUNTS, generateScene, validationScenes, validationUnseenScenes } from './worlds/household/env/splits.ts';
import { SCALES, TINY } from './worlds/household/env/scale.ts';
import { DEFAULT_CATALOGUE } from './worlds/shop/env/catalogue.ts';
import { BRANDS, CATEGORIES } from './worlds/shop/env/categories.ts';
import { SHOP } from './worlds/shop/env/environment.ts';
import { SHOP_MAX_STEPS, ShopGame } from './worlds/shop/env/game.ts';
import { SHOP_SCALES, TINY_SHOP, WEBSHOP } from './worlds/shop/env/scale.ts';
import {
  generateShopScene,
  SHOP_EVAL_COUNTS,
  validationShopScenes,
  validationUnseenShopScenes,
} from './worlds/shop/env/splits.ts';
import { PRESET_NAMES, PRESETS, presetConfig, type PresetName } from './model/config.ts';
import { parameterLayout } from './model/layout.ts';
import { CROSSGAME_POOL_SIZE } from './rl/hindsight.ts';
import { factsOf } from './worlds/facts.ts';
import { rlWorldOf } from './worlds/rl_worlds.ts';
import { WARMSTART_DEFAULTS } from './rl/warmstart.ts';
import { ANALYZER_OBSERVATION_TOKENS } from './text/prompts.ts';
import { MIN_SKILL_WORDS } from './worlds/household/skills/skill.ts';
import { tokenizerOf } from './text/tokenizer.ts';
import { MASKED_LOG_PROB } from './backend/contract.ts';
import { MAX_RECORD_BYTES } from './rl/recorded_run.ts';
import { MAX_SAVED_RUNS } from './worker/saved_run.ts';
import { read, stated, tableRows } from './docs_testing.ts';

const num = (text: string) => Number(text.replace(/,/g, ''));
const WORDS: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, ten: 10, twelve: 12 };

const vocabSize = (world: EnvironmentName) => tokenizerOf(environmentOf(world)).vocabSize;
/** A preset's parameters in a world (the views' sizes) and the floats of its flat buffer (with the alignment). */
function counts(preset: PresetName, world: EnvironmentName): { parameters: number; floats: number } {
  const layout = parameterLayout(presetConfig(preset, vocabSize(world)));
  return { parameters: layout.list.reduce((s, v) => s + v.size, 0), floats: layout.totalFloats };
}

/** The prose of the documents and of the code comments that state the presets' sizes. */
const PROSE = [
  'README.md',
  'DEVELOPERS.md',
  'docs/architecture.md',
  'docs/seed-loss.md',
  'docs/environment.md',
  ...ENVIRONMENT_NAMES.map((world) => `src/worlds/${world}/README.md`),
  'src/rl/README.md',
  'src/model/config.ts',
];

describe('the model', () => {
  it("architecture.md's preset table holds each preset's shape, parameters and buffer in each world", () => {
    const rows = tableRows(read('docs/architecture.md'), /^\| preset \| layers \| width \| heads \| MLP width \|/);
    expect(rows.map((r) => r[0].replace(/`/g, ''))).toEqual(PRESET_NAMES);
    for (const [name, layers, width, heads, mlp, context, parameters, floats] of rows) {
      const preset = name.replace(/`/g, '') as PresetName;
      const shape = PRESETS[preset];
      expect([layers, width, heads, mlp, context].map(num), preset).toEqual([
        shape.nLayer,
        shape.dModel,
        shape.nHead,
        shape.dMlp,
        shape.contextLength,
      ]);
      const worlds = ENVIRONMENT_NAMES.map((world) => counts(preset, world));
      expect(parameters.split(' / ').map(num), preset).toEqual(worlds.map((w) => w.parameters));
      expect(floats.split(' / ').map(num), preset).toEqual(worlds.map((w) => w.floats));
    }
  });

  it('every parameter count the prose states is one a preset has in a world', () => {
    const known = new Set(
      PRESET_NAMES.flatMap((p) => ENVIRONMENT_NAMES.map((w) => counts(p, w).parameters)).map((n) => n),
    );
    let found = 0;
    for (const file of PROSE) {
      for (const [count] of [...read(file).matchAll(/(\d[\d,]*) parameters/g)].map((m) => m.slice(1))) {
        expect(known.has(num(count)), `${file}: ${count} parameters`).toBe(true);
        found++;
      }
    }
    // seed-loss.md (twice) and config.ts state the tiny preset's.
    expect(found).toBeGreaterThanOrEqual(3);
    expect(stated(read('docs/seed-loss.md'), /(\d[\d,]*) parameters/g).map(([n]) => num(n))).toContain(
      counts('tiny', 'household').parameters,
    );
  });

  it("the worlds' vocabulary sizes are the tokenizers'", () => {
    const both = [vocabSize('household'), vocabSize('shop')];
    for (const file of ['docs/seed-loss.md', 'docs/architecture.md'])
      for (const pair of stated(read(file), /(\d+) tokens in the household,\s+(\d+) in the shop/g))
        expect(pair.map(num), file).toEqual(both);
    expect(
      stated(
        read('docs/architecture.md'),
        /(\d+) tokens in the household,\s+(\d+) in the shop and (\d+) in the search-QA world/g,
      ),
    ).toEqual([[...both, vocabSize('searchqa')].map(String)]);
    const config = stated(
      read('src/model/config.ts'),
      /household's \((\d+)\s*(?:\*\s*)?tokens\) and .*? shop's \((\d+)\)/gs,
    );
    expect(config[0].map(num)).toEqual(both);
    expect(stated(read('src/worlds/shop/README.md'), /`tokenizerOf\(SHOP\)`, (\d+) tokens/g)).toEqual([
      [String(both[1])],
    ]);
    expect(stated(read('docs/environment.md'), /the shop's vocabulary is closed too: (\d+) tokens/g)).toEqual([
      [String(both[1])],
    ]);
  });
});

describe('the shop', () => {
  const environment = read('docs/environment.md');
  const shopReadme = read('src/worlds/shop/README.md');

  it("environment.md's scale table holds src/worlds/shop/env/scale.ts", () => {
    const rows = tableRows(environment, /^\| shop scale \| results a page \| results in all \|/);
    expect(rows.map((r) => r[0].match(/`(\w+)`/)![1])).toEqual(Object.keys(SHOP_SCALES));
    for (const [name, perPage, inAll, instruction, listed] of rows) {
      const scale = SHOP_SCALES[name.match(/`(\w+)`/)![1] as keyof typeof SHOP_SCALES];
      expect([num(perPage), num(inAll)], name).toEqual([scale.resultsPerPage, scale.maxResults]);
      expect(instruction, name).toBe(scale.instructionOnEveryPage ? 'on every page' : 'on the search page only');
      expect(listed, name).toBe(
        scale.chosenOptionsListed ? 'every option, chosen ones too' : 'the options not yet chosen',
      );
    }
  });

  it("the scales' results a page and in all, wherever the prose states them", () => {
    const pages = (scale: typeof TINY_SHOP) => [String(scale.resultsPerPage), String(scale.maxResults)];
    expect(stated(shopReadme, /(\d+)\s+results\s+a\s+page\s+and\s+at\s+most\s+(\d+)/g)).toEqual([
      pages(TINY_SHOP),
      pages(WEBSHOP),
    ]);
    expect(stated(environment, /\((\d+) in the tiny shop, (\d+) in WebShop's\)/g)).toEqual([
      [String(TINY_SHOP.maxResults), String(WEBSHOP.maxResults)],
    ]);
    expect(stated(read('docs/seed-loss.md'), /with (\d+) results a page at the tiny scale/g)).toEqual([
      [String(TINY_SHOP.resultsPerPage)],
    ]);
    const comment = read('src/worlds/shop/env/scale.ts');
    expect(stated(comment, /WebShop's pages list (\d+) results, (\d+) in all/g)).toEqual([pages(WEBSHOP)]);
    expect(stated(comment, /The tiny shop lists (\d+) results a page, (\d+) in all/g)).toEqual([pages(TINY_SHOP)]);
  });

  it('the catalogue, the step budget, the eval sets and the search bar', () => {
    const catalogue = String(DEFAULT_CATALOGUE.size);
    expect(stated(shopReadme, /\((\d+) products by default\)/g)).toEqual([[catalogue]]);
    expect(stated(environment, /(\d+) products by default/g)).toEqual([[catalogue]]);
    expect(stated(read('docs/seed-loss.md'), /catalogue of (\d+)\s+products/g)).toEqual([[catalogue]]);
    expect(stated(environment, /over (\d+) categories/g)).toEqual([[String(CATEGORIES.length)]]);
    expect(stated(shopReadme, /the (\w+) categories/g).map(([w]) => WORDS[w])).toEqual([CATEGORIES.length]);
    expect(stated(environment, /each with (\d+) product types/g)).toEqual([[String(CATEGORIES[0].types.length)]]);
    expect(CATEGORIES.every((c) => c.types.length === CATEGORIES[0].types.length)).toBe(true);
    expect(stated(environment, /and (\d+) brands/g)).toEqual([[String(BRANDS.length)]]);
    const budget = String(SHOP_MAX_STEPS);
    expect(stated(shopReadme, /step budget \((\d+)\)|default maxSteps (\d+)/g).map((m) => m.find(Boolean))).toEqual([
      budget,
      budget,
    ]);
    expect(stated(environment, /a shop game's default is (\d+) actions \(`SHOP_MAX_STEPS`/g)).toEqual([[budget]]);
    const evalSets = [String(SHOP_EVAL_COUNTS.seen), String(SHOP_EVAL_COUNTS.unseen)];
    expect(stated(shopReadme, /\((\d+) seen, (\d+) unseen\)/g)).toEqual([evalSets]);
    expect(stated(environment, /fixed: (\d+) seen and (\d+) unseen games/g)).toEqual([evalSets]);
    expect(stated(environment, /every world's `EVAL_SEED`\s+\((\d+)\)/g)).toEqual([[String(EVAL_SEED)]]);
    const searchBar = new ShopGame(generateShopScene('train', 0)).freeText()!.maxPieces;
    for (const text of [shopReadme, environment])
      expect(stated(text, /one\s+to\s+(\w+)\s+(?:word\s+)?pieces/g).map(([w]) => WORDS[w])).toEqual([searchBar]);
  });

  it("the shop's training settings: environment.md's table and src/rl/README.md hold the shop's facts", () => {
    const shop = factsOf('shop').trainDefaults;
    const rows = tableRows(environment, /^\| shop setting \| shop \| what \|/);
    expect(Object.fromEntries(rows.map(([key, value]) => [key.replace(/`/g, ''), num(value)]))).toEqual(shop);
    expect(stated(read('src/rl/README.md'), /`maxSteps` (\d+), `history` (\d+)/g)).toEqual([
      [String(shop.maxSteps), String(shop.history)],
    ]);
    expect(stated(environment, /the run's `maxSteps`, which the shop sets to (\d+)/g)).toEqual([
      [String(shop.maxSteps)],
    ]);
  });

  it('the seeds of the validation and teacher-check games are the ones the splits draw with', () => {
    const [validation] = stated(environment, /validation games\*\* are drawn with (\d+): `validation`/g);
    expect(validationShopScenes(2)).toEqual([0, 1].map((i) => generateShopScene('seen', i, num(validation[0]))));
    const unseen = Array.from({ length: 20 }, (_, i) =>
      JSON.stringify(generateShopScene('unseen', i, num(validation[0]))),
    );
    for (const scene of validationUnseenShopScenes(2)) expect(unseen).toContain(JSON.stringify(scene));
    const [teacher] = stated(environment, /the teacher check plays train games drawn\s+with (\d+)/g);
    expect(rlWorldOf(SHOP).teacherScenes(2)).toEqual([0, 1].map((i) => SHOP.sceneOf('train', i, num(teacher[0]))));
  });
});

describe('the household', () => {
  const environment = read('docs/environment.md');

  it("environment.md's room scale table holds src/worlds/household/env/scale.ts", () => {
    const range = (text: string) => (text.includes('-') ? text.split('-').map(num) : [num(text), num(text)]);
    const rows = tableRows(environment, /^\| scale \| receptacles \| objects \|/);
    expect(rows.map((r) => r[0].match(/`(\w+)`/)![1])).toEqual(Object.keys(SCALES));
    for (const [name, receptacles, objects, storage, layouts] of rows) {
      const scale = SCALES[name.match(/`(\w+)`/)![1]];
      expect([range(receptacles), range(objects)], name).toEqual([scale.receptacles, scale.objects]);
      expect(storage.split(' / ').map(range), name).toEqual([scale.storage.train, scale.storage.unseen]);
      expect(layouts.split(' / ').map(num), name).toEqual([
        scale.layouts.train,
        scale.layouts.unseen,
        scale.layouts['validation-unseen'],
      ]);
    }
  });

  it('the eval sets, their seed, the validation and teacher-check seeds and the step budget', () => {
    const evalSets = [String(EVAL_COUNTS.seen), String(EVAL_COUNTS.unseen)];
    expect(stated(read('README.md'), /eval-seen \((\d+) games\) and\s+eval-unseen \((\d+) games/g)).toEqual([evalSets]);
    expect(
      stated(environment, /`evalScenes\('seen'\)`, (\d+) games, and `evalScenes\('unseen'\)`, (\d+) games/g),
    ).toEqual([evalSets]);
    const envReadme = read('src/worlds/household/README.md');
    expect(stated(envReadme, /\/\/ (\d+) games \((\d+) for 'seen'\), EVAL_SEED = (\d+)/g)).toEqual([
      [evalSets[1], evalSets[0], String(EVAL_SEED)],
    ]);
    expect(stated(environment, /`EVAL_SEED = (\d+)`/g)).toEqual([[String(EVAL_SEED)]]);
    const [validation] = stated(environment, /`VALIDATION_SEED = (\d+)`/g);
    expect(validationScenes(TINY, 2)).toEqual([0, 1].map((i) => generateScene('seen', i, TINY, num(validation[0]))));
    expect(validationUnseenScenes(TINY, 2)).toEqual(
      [0, 1].map((i) => generateScene('validation-unseen', i, TINY, num(validation[0]))),
    );
    const [teacher] = stated(environment, /the teacher check plays train games drawn with its own seed \((\d+)\)/g);
    const household = rlWorldOf(environmentOf('household'));
    expect(household.teacherScenes(2)).toEqual([0, 1].map((i) => generateScene('train', i, TINY, num(teacher[0]))));
    expect(stated(environment, /a game's default is (\d+) \(`DEFAULT_MAX_STEPS`/g)).toEqual([
      [String(DEFAULT_MAX_STEPS)],
    ]);
    expect(stated(envReadme, /\/\/ default maxSteps (\d+)/g)).toEqual([[String(DEFAULT_MAX_STEPS)]]);
  });

  it("the explorers' noise and the constants the loss's description names", () => {
    expect(
      stated(environment, /With probability `noise` \(([\d.]+)\)|with probability `noise` \(([\d.]+)\)/g).map((m) =>
        Number(m.find(Boolean)),
      ),
    ).toEqual([WARMSTART_DEFAULTS.noise, WARMSTART_DEFAULTS.noise]);
    const loss = read('docs/seed-loss.md');
    expect(stated(loss, /at least (\d+) words \(`MIN_SKILL_WORDS`/g)).toEqual([[String(MIN_SKILL_WORDS)]]);
    expect(stated(loss, /one of the last (\d+) usable skills/g)).toEqual([[String(CROSSGAME_POOL_SIZE)]]);
    expect(stated(loss, /cut to\s+(\d+) tokens/g)).toEqual([[String(ANALYZER_OBSERVATION_TOKENS)]]);
    expect(rlWorldOf(environmentOf('household')).analyzerObservationTokens).toBe(ANALYZER_OBSERVATION_TOKENS);
  });
});

describe("the code's constants that the design notes name", () => {
  const notes = ['DEVELOPERS.md', 'docs/architecture.md', 'docs/seed-loss.md'];

  it("the masked log-prob, the views' alignment, the saved runs kept and the recorded run's size", () => {
    for (const file of notes)
      for (const [value] of stated(read(file), /`MASKED_LOG_PROB = (-?[\d.e-]+)`/g))
        expect(Number(value), file).toBe(MASKED_LOG_PROB);
    // Each view starts at the first multiple of the alignment past the one before it: that pins the alignment.
    const layout = parameterLayout(presetConfig('micro', vocabSize('household')));
    for (const file of ['DEVELOPERS.md', 'docs/architecture.md']) {
      for (const [floats] of stated(read(file), /at (?:a )?multiples? of (\d+) floats/g)) {
        const align = num(floats);
        layout.list.slice(1).forEach((view, i) => {
          const end = layout.list[i].offset + layout.list[i].size;
          expect(view.offset, `${file}: ${view.name}`).toBe(Math.ceil(end / align) * align);
        });
      }
    }
    expect(stated(read('DEVELOPERS.md'), /multiple of \d+ floats \((\d+) bytes/g)).toEqual([
      [String(4 * num(stated(read('DEVELOPERS.md'), /multiple of (\d+) floats/g)[0][0]))],
    ]);
    const architecture = read('docs/architecture.md');
    expect(stated(architecture, /The (\w+) runs saved last are kept/g).map(([w]) => WORDS[w])).toEqual([
      MAX_SAVED_RUNS,
    ]);
    expect(stated(architecture, /under (\d+) MB\)/g).map(([mb]) => num(mb) * 1024 * 1024)).toEqual([MAX_RECORD_BYTES]);
  });

  it('the constants the code keeps to itself, read from their declarations', () => {
    /** The value a module declares for a constant it does not export: `const NAME = value;`. */
    const declared = (file: string, name: string) => {
      const [value] = stated(read(file), new RegExp(`^const ${name} = ([\\d.]+);$`, 'gm'));
      return Number(value[0]);
    };
    const [lines] = stated(read('DEVELOPERS.md'), /holds more than (\d+) lines \(`src\/file_length\.test\.ts`\)/g);
    expect(num(lines[0])).toBe(declared('src/file_length.test.ts', 'MAX_LINES'));
    const [flush] = stated(read('docs/architecture.md'), /applied together at most every (\d+) ms/g);
    expect(num(flush[0])).toBe(declared('src/ui/store.ts', 'FLUSH_MS'));
    const environment = read('docs/environment.md');
    const [opens] = stated(environment, /each opens with chance ([\d.]+)\)/g);
    expect(Number(opens[0])).toBe(declared('src/worlds/household/env/splits.ts', 'OPENABLE_STORAGE'));
    const heldOut = declared('src/worlds/shop/env/splits.ts', 'HELD_OUT_ONE_IN');
    expect(stated(environment, /one combination in (\w+), chosen by a hash/g).map(([w]) => WORDS[w])).toEqual([
      heldOut,
    ]);
    expect(
      stated(read('src/worlds/shop/env/splits.ts'), /One combination in (\w+), chosen by a hash/g).map(
        ([w]) => WORDS[w],
      ),
    ).toEqual([heldOut]);
  });
});
