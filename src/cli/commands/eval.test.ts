// The preset whose settings an evaluation starts from: the checkpoint's own, checked against its weights; the
// scene files of --scenes, of which a command reads only those it plays; the shop's catalogues that scene files
// name, of which an evaluation holds only a few at once, counted after a full collection.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import type { Environment } from '../../env/environment.ts';
import { CpuBackend } from '../../backend/cpu/cpu_backend.ts';
import type { Checkpoint } from '../../model/checkpoint.ts';
import { PRESET_NAMES, presetConfig, type ModelConfig } from '../../model/config.ts';
import { initParameters } from '../../model/init.ts';
import { defaultConfig } from '../../rl/config.ts';
import { evaluate } from '../../rl/evaluate.ts';
import { tokenizerOf } from '../../text/tokenizer.ts';
import { CATALOGUE_CACHE_SIZE, catalogueOf, type CatalogueSpec } from '../../worlds/shop/env/catalogue.ts';
import type { ShopScene } from '../../worlds/shop/env/scene.ts';
import { CliError } from '../cli_error.ts';
import { environmentFrom } from '../environment_option.ts';
import { runCaptured } from '../testing.ts';
import { checkpointPreset, readScenes, run, sceneFiles } from './eval.ts';

const checkpoint = (config: ModelConfig, metadata: Record<string, unknown>): Checkpoint => ({
  config,
  vocabHash: 'v',
  params: new Float32Array(0),
  optimizer: null,
  metadata,
});

describe("an evaluated checkpoint's preset", () => {
  it('is the one its metadata names, micro included, or for one that names none, the one of its shape', () => {
    for (const preset of PRESET_NAMES) {
      expect(checkpointPreset(checkpoint(presetConfig(preset, 50), { preset }), 'x.ckpt')).toBe(preset);
      expect(checkpointPreset(checkpoint(presetConfig(preset, 50), { stage: 'reference' }), 'x.ckpt')).toBe(preset);
    }
  });

  it('is refused in one line when the metadata names another preset, an unknown one, or none fits the weights', () => {
    const micro = presetConfig('micro', 50);
    expect(() => checkpointPreset(checkpoint(micro, { preset: 'tiny' }), 'x.ckpt')).toThrow(
      new CliError(
        "x.ckpt: metadata.preset is tiny, but its model (d 16, 2 layers, 2 heads, MLP 64, context 512, lnEps 0.00001) is not the tiny preset's",
      ),
    );
    expect(() => checkpointPreset(checkpoint(micro, { preset: 'huge' }), 'x.ckpt')).toThrow(
      new CliError('x.ckpt: metadata.preset is "huge", not one of micro, tiny, small'),
    );
    expect(() => checkpointPreset(checkpoint({ ...micro, nHead: 4 }, {}), 'x.ckpt')).toThrow(
      new CliError(
        "x.ckpt: names no preset, and its model (d 16, 2 layers, 4 heads, MLP 64, context 512, lnEps 0.00001) has none of the presets' shapes",
      ),
    );
  });
});

describe('--split', () => {
  it('plays the validation games of either kind, as the same games given as scene files', async () => {
    // the environment the command plays (one per scale), its sets watched
    const env = environmentFrom(undefined) as Environment & { validationUnseenScenes: (count?: number) => unknown[] };
    const ckpt = ['--ckpt', 'public/warmstart-micro.ckpt', '--temperature', '0'];
    for (const [split, games, method] of [
      ['validation-unseen', env.validationUnseenScenes(2), 'validationUnseenScenes'],
      ['validation', env.validationScenes(2), 'validationScenes'],
    ] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'eval-split-'));
      for (const [i, scene] of games.entries()) writeFileSync(join(dir, `${i}.json`), env.sceneToJson(scene));
      const drawn = vi.spyOn(env, method);
      const evalSets = vi.spyOn(env, 'evalScenes');
      const bySplit = await runCaptured(run, [...ckpt, '--split', split, '--episodes', '2']);
      expect([drawn.mock.calls.length, evalSets.mock.calls.length], split).toEqual([1, 0]);
      vi.restoreAllMocks();
      const byFiles = await runCaptured(run, [...ckpt, '--scenes', dir]);
      expect(JSON.parse(bySplit.stdout).episodes, split).toBe(2);
      expect(bySplit.stdout, split).toBe(byFiles.stdout);
    }
    await expect(runCaptured(run, [...ckpt, '--split', 'train'])).rejects.toThrow(
      new CliError('--split must be one of seen, unseen, validation, validation-unseen, got "train"', 2),
    );
  }, 60_000);
});

describe('the scene files of --scenes', () => {
  it('are listed by name, files only, and only those played are read', async () => {
    const env = environmentFrom(undefined);
    const dir = mkdtempSync(join(tmpdir(), 'eval-scenes-'));
    const [first, second] = env.evalScenes('seen', 2);
    writeFileSync(join(dir, 'b.json'), env.sceneToJson(second));
    writeFileSync(join(dir, 'a.json'), env.sceneToJson(first));
    writeFileSync(join(dir, 'c.json'), '{"room": "kitchen"');
    writeFileSync(join(dir, 'notes.txt'), 'not a scene');
    mkdirSync(join(dir, 'd.json'));
    const files = await sceneFiles(dir);
    expect(files).toEqual(['a.json', 'b.json', 'c.json'].map((name) => join(dir, name)));
    // The broken third file is never read when two are played; reading it is refused, naming it.
    const played = await readScenes(env, files.slice(0, 2));
    expect(played.map((scene) => env.sceneToJson(scene))).toEqual([env.sceneToJson(first), env.sceneToJson(second)]);
    await expect(readScenes(env, files)).rejects.toThrow(join(dir, 'c.json'));
  });

  it('are refused in one line when the directory holds none or cannot be read', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'eval-scenes-'));
    await expect(sceneFiles(empty)).rejects.toThrow(new CliError(`${empty} holds no .json scene files`));
    await expect(sceneFiles(join(empty, 'missing'))).rejects.toThrow(
      new CliError(`cannot read ${join(empty, 'missing')}: ENOENT`),
    );
  });
});

describe('the catalogues of an evaluation of shop scene files', () => {
  it('are held at most CATALOGUE_CACHE_SIZE at once, however many distinct ones the files name', async () => {
    // A full collection on demand, to count which catalogues are still reachable.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const dir = mkdtempSync(join(tmpdir(), 'seed-eval-catalogues-'));
    const distinct = CATALOGUE_CACHE_SIZE + 3;
    for (let i = 0; i < distinct; i++) {
      const spec: CatalogueSpec = { seed: 700 + i, size: 200 };
      const target = catalogueOf(spec)[0];
      const goal = {
        targetId: target.id,
        attributes: [target.attributes[0]],
        options: {},
        priceUpperCents: target.priceCents,
      };
      writeFileSync(join(dir, `s${i}.json`), JSON.stringify({ version: 1, catalogue: spec, goal }));
    }
    const env = environmentFrom('shop');
    const tok = tokenizerOf(env);
    const scenes = (await readScenes(env, await sceneFiles(dir))) as ShopScene[];
    const model = presetConfig('micro', tok.vocabSize);
    const backend = new CpuBackend(model, initParameters(model, 1));
    // Each episode's catalogue as its game played it (the shared one, which the game holds while it plays).
    const played = new Map<number, WeakRef<object>>();
    await evaluate(env, backend, tok, scenes, { ...defaultConfig('micro'), maxSteps: 2 }, (t) => {
      const spec = (t.scene as ShopScene).catalogue;
      played.set(spec.seed, new WeakRef(catalogueOf(spec)));
    });
    expect(played.size).toBe(distinct);
    for (let i = 0; i < 3; i++) {
      await new Promise((done) => setTimeout(done, 0));
      gc();
    }
    const held = [...played.values()].filter((ref) => ref.deref() !== undefined).length;
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(CATALOGUE_CACHE_SIZE);
  });
});
