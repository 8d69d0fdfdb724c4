// Where a run's weights come from: the shipped warm starts are the files in public/, a preset without one
// starts from seeded random weights and says so, and a warm start that is no checkpoint stops the start with
// a message that says why, after which another preset starts as usual.
import { existsSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { writeCheckpoint } from '../model/checkpoint.ts';
import {
  PRESET_NAMES,
  presetConfig,
  shipsWarmStart,
  warmStartFile,
  warmStartPath,
  type PresetName,
} from '../model/config.ts';
import { ENVIRONMENT_NAMES } from '../worlds/names.ts';
import { initParameters } from '../model/init.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { Engine } from './engine.ts';
import { TEST_SETTINGS, clearStore, memoryHost } from './engine_testing.ts';

beforeEach(clearStore);

const tok = defaultTokenizer();

function microCheckpoint(vocabHash = tok.hash): Uint8Array {
  const config = presetConfig('micro', tok.vocabSize);
  return writeCheckpoint({
    config,
    vocabHash,
    params: initParameters(config, 9),
    optimizer: null,
    metadata: { stage: 'warmstart' },
  });
}

/** An engine whose host ships `bytes` as every preset's warm start. */
function engineShipping(bytes: Uint8Array): Engine {
  const host = memoryHost();
  host.warmStart = async (preset: PresetName) => ({
    bytes,
    source: `the shipped warm start (${warmStartFile(preset, 'household')})`,
  });
  return new Engine(host);
}

describe('warm starts', () => {
  it('ship for exactly the presets listed', () => {
    for (const world of ENVIRONMENT_NAMES) {
      for (const preset of PRESET_NAMES) {
        expect(`${world} ${preset}: ${existsSync(warmStartPath(preset, world))}`).toBe(
          `${world} ${preset}: ${shipsWarmStart(preset, world)}`,
        );
        expect(warmStartPath(preset, world)).toBe(`public/${warmStartFile(preset, world)}`);
      }
    }
  });

  it('a preset without one starts from seeded random weights and says so', async () => {
    const info = await new Engine(memoryHost()).start(TEST_SETTINGS, null);
    expect(info.initial.random).toBe(true);
    expect(info.initial.source).toBe(
      `a seeded random initialisation, seed ${TEST_SETTINGS.seed} (no warm start ships for the micro preset)`,
    );
  });

  it('starts from a good one', async () => {
    const info = await engineShipping(microCheckpoint()).start(TEST_SETTINGS, null);
    expect(info.initial).toMatchObject({ random: false, source: 'the shipped warm start (warmstart-micro.ckpt)' });
  });

  it('refuses a web page, a truncated file and another vocabulary with a clear message, and recovers', async () => {
    const good = microCheckpoint();
    const cases: [Uint8Array, RegExp][] = [
      [
        new TextEncoder().encode('<!doctype html>\n<html><body>SEED Playground</body></html>'),
        /^the shipped warm start \(warmstart-micro\.ckpt\) cannot be used: the server sent a web page \(HTML\) instead of a checkpoint/,
      ],
      [
        good.subarray(0, good.length >> 1),
        /^the shipped warm start \(warmstart-micro\.ckpt\) cannot be used: .*truncated/,
      ],
      [
        microCheckpoint('another-vocabulary'),
        /^the shipped warm start \(warmstart-micro\.ckpt\) cannot be used: .*vocabulary/,
      ],
    ];
    for (const [bytes, message] of cases) {
      const host = memoryHost();
      let shipped = bytes;
      host.warmStart = async () => ({ bytes: shipped, source: 'the shipped warm start (warmstart-micro.ckpt)' });
      const engine = new Engine(host);
      await expect(engine.start(TEST_SETTINGS, null)).rejects.toThrow(message);
      await expect(engine.stepUpdate()).resolves.toEqual([]);
      shipped = good;
      const info = await engine.start(TEST_SETTINGS, null);
      expect(info.initial.random).toBe(false);
      expect((await engine.stepUpdate()).map((m) => m.update)).toEqual([1]);
    }
  });
});
