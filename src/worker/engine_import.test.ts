// The page's import of a checkpoint makes the checks `seed train` makes (rl/run_metadata.ts, rl/policy_probe.ts):
// a run checkpoint's metadata out of range or of another preset, weights whose forward overflows, a header that
// differs from the preset in any field, a metadata block far larger than a run's are refused in one line, and
// the run goes on with its own weights. A checkpoint of the other world is refused naming both worlds.
import { beforeEach, describe, expect, it } from 'vitest';
import { environmentOf } from '../worlds/environments.ts';
import { readCheckpoint, writeCheckpoint, type Checkpoint } from '../model/checkpoint.ts';
import { presetConfig } from '../model/config.ts';
import { initParameters } from '../model/init.ts';
import { tokenizerOf } from '../text/tokenizer.ts';
import { headerJson, sealedCheckpoint } from '../model/checkpoint_testing.ts';
import { Engine } from './engine.ts';
import { readImportedCheckpoint } from './import_checkpoint.ts';
import { TEST_SETTINGS, clearStore, memoryHost } from './engine_testing.ts';

beforeEach(clearStore);

async function startedEngine() {
  const engine = new Engine(memoryHost());
  await engine.start(TEST_SETTINGS, null);
  return engine;
}

describe('importing a checkpoint on the page', () => {
  it('refuses what `seed train --resume` refuses, naming the field, and keeps the run as it was', async () => {
    const engine = await startedEngine();
    await engine.stepUpdate();
    const exported = await engine.exportCheckpoint('seed');
    const ck = readCheckpoint(exported);
    const edited = (change: Partial<Checkpoint>) => writeCheckpoint({ ...ck, ...change });
    const metadata = (extra: Record<string, unknown>) => edited({ metadata: { ...ck.metadata, ...extra } });
    const cases: [string, Uint8Array, string][] = [
      ['updates -5', metadata({ updates: -5 }), 'metadata.updates is -5, not a whole number in [0, 1000000000]'],
      [
        'tiny metadata on micro weights',
        metadata({ preset: 'tiny' }),
        'its metadata names the tiny preset, but its weights are of the micro preset (dModel 16 (expected 48), nHead 2 (expected 4), dMlp 64 (expected 192))',
      ],
      [
        'weights of 3e38',
        edited({ params: new Float32Array(ck.params.length).fill(3e38) }),
        'the checkpoint: its weights give non-finite logits',
      ],
      [
        'a changed lnEps',
        edited({ config: { ...ck.config, lnEps: 1e-3 } }),
        "the checkpoint's model differs from this run's micro preset: lnEps 0.001 (expected 0.00001)",
      ],
      [
        'a 20 MB metadata block',
        sealedCheckpoint(headerJson(ck.config, { note: 'x'.repeat(20 << 20) }, ck.params.length), 4 * ck.params.length),
        'corrupted checkpoint: a header of 20971',
      ],
    ];
    for (const [label, bytes, message] of cases) {
      await expect(engine.importCheckpoint(bytes), label).rejects.toThrow(message);
    }
    expect(await engine.exportCheckpoint('seed')).toEqual(exported);
    const [next] = await engine.stepUpdate();
    expect(next.update).toBe(2);
  });

  it('refuses a checkpoint of the other world naming both worlds and saying to switch World', async () => {
    const engine = await startedEngine();
    const before = await engine.exportCheckpoint('seed');
    await expect(engine.importCheckpoint(microCheckpoint('shop'))).rejects.toThrow(
      'it is a shop checkpoint, not a household one: switch World to the shop to import it',
    );
    expect(await engine.exportCheckpoint('seed')).toEqual(before);
    const shopHash = tokenizerOf(environmentOf('shop')).hash;
    expect(() => readImportedCheckpoint(microCheckpoint('household'), shopHash, 'shop')).toThrow(
      'it is a household checkpoint, not a shop one: switch World to the household to import it',
    );
    // A vocabulary of no world keeps the reader's own refusal, by its hash.
    const foreign = writeCheckpoint({ ...readCheckpoint(before), vocabHash: 'deadbeef' });
    expect(() => readImportedCheckpoint(foreign, shopHash, 'shop')).toThrow(/written for vocabulary deadbeef/);
  });
});

/** A micro checkpoint of seeded weights in a world's vocabulary. */
function microCheckpoint(world: 'household' | 'shop'): Uint8Array {
  const tok = tokenizerOf(environmentOf(world));
  const config = presetConfig('micro', tok.vocabSize);
  return writeCheckpoint({
    config,
    vocabHash: tok.hash,
    params: initParameters(config, 1),
    optimizer: null,
    metadata: {},
  });
}
