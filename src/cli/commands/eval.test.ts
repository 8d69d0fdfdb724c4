// The preset whose settings an evaluation starts from: the checkpoint's own, checked against its weights.
import { describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../model/checkpoint.ts';
import { PRESET_NAMES, presetConfig, type ModelConfig } from '../../model/config.ts';
import { CliError } from '../cli_error.ts';
import { checkpointPreset } from './eval.ts';

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
