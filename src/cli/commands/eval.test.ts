// The preset whose settings an evaluation starts from: the checkpoint's own, checked against its weights; the
// scene files of --scenes, of which a command reads only those it plays.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../model/checkpoint.ts';
import { PRESET_NAMES, presetConfig, type ModelConfig } from '../../model/config.ts';
import { CliError } from '../cli_error.ts';
import { environmentFrom } from '../environment_option.ts';
import { checkpointPreset, readScenes, sceneFiles } from './eval.ts';

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
