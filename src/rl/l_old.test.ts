// l_old is the rollout's own log-prob of each sampled token (the decoder's, KV cache and all), and no scoring pass
// computes it again: that holds only because it is the scoring pass's value bit for bit, whatever the batching
// (the decoder runs streams in lockstep, the scoring pass packs every trajectory's sequences into one padded
// batch), in every world's layout: the household's and search QA's whole episodes, the shop's windowed steps.
// The reference pass scores a windowed step inside the next step's sequence where it opens it (joinPrefixes):
// the same bits again.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { readCheckpoint } from '../model/checkpoint.ts';
import { presetConfig, warmStartPath } from '../model/config.ts';
import { tokenizerOf } from '../text/tokenizer.ts';
import { environmentOf } from '../worlds/environments.ts';
import { ENVIRONMENT_NAMES } from '../worlds/names.ts';
import { rlWorldOf } from '../worlds/rl_worlds.ts';
import { joinPrefixes, packBatch } from './batch.ts';
import { defaultConfig } from './config.ts';
import { Trainer } from './trainer.ts';

describe('l_old', () => {
  it.each(ENVIRONMENT_NAMES)(
    '%s: the rollout log-probs equal the scoring pass of the packed batch, bit for bit',
    async (world) => {
      const env = environmentOf(world);
      const tok = tokenizerOf(env);
      const rl = rlWorldOf(env);
      const params = readCheckpoint(readFileSync(warmStartPath('tiny', world)), { vocabHash: tok.hash }).params;
      const backend = new CpuBackend(presetConfig('tiny', tok.vocabSize), params);
      const config = {
        ...defaultConfig('tiny'),
        ...rl.trainDefaults,
        tasksPerUpdate: 2,
        groupSize: 3,
        maxSteps: 5,
        temperature: 2,
      };
      const trainer = new Trainer({ backend, tokenizer: tok, algo: 'grpo', config, seed: 4, world: rl });
      const st = await trainer.nextStage();
      expect(st.trajectories[0].layout).toBe(config.history < config.maxSteps ? 'window' : 'episode');
      const scored = await backend.score(
        packBatch(
          st.trajectories.flatMap((t) => t.sequences),
          tok.padId,
        ),
      );
      const lOld = st.trajectories.flatMap((t) => Array.from(t.lOld));
      expect(scored.length).toBeGreaterThan(50);
      expect(Array.from(scored)).toEqual(lOld);
      // The reference pass scores a step's sequence inside the next one where it opens it: the same bits.
      const seqs = st.trajectories.flatMap((t) => t.sequences);
      const joined = joinPrefixes(seqs);
      if (world === 'shop') expect(joined.length).toBeLessThan(seqs.length);
      else expect(joined).toEqual(seqs);
      expect(Array.from(await backend.score(packBatch(joined, tok.padId), 'reference'))).toEqual(
        Array.from(await backend.score(packBatch(seqs, tok.padId), 'reference')),
      );
    },
  );
});
