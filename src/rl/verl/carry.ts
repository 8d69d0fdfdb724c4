// A playground run carried to the SEED repository's trainer, for the command line (`export-verl`) and the page's
// "Run it at scale" alike: the runs a link's settings describe, and the skill SFT's dataset of a run as the two
// parquet files beside its launch script. The page imports this module only when it writes a dataset.
import { tokenizerOf } from '../../text/tokenizer.ts';
import { environmentOf } from '../../worlds/environments.ts';
import { rlWorldOf } from '../../worlds/rl_worlds.ts';
import { SEED_REPOSITORY } from './config_keys.ts';
import type { RunToCarry } from './launch_script.ts';
import { sftParquet } from './parquet.ts';
import { sftRows, splitRows } from './sft_dataset.ts';

/** Games of the dataset unless asked otherwise, each played by the expert and the explorer: the paper's 180 tasks. */
export const DEFAULT_SFT_GAMES = 180;

export interface SftFiles {
  train: Uint8Array;
  val: Uint8Array;
  rows: { train: number; val: number };
}

/** The dataset of a run's world (at `scale`, the page's tiny unless a run directory names another) as two parquet files. */
export async function sftFiles(run: RunToCarry, games: number, scale = 'tiny'): Promise<SftFiles> {
  const env = environmentOf(run.env, scale);
  const rows = sftRows(rlWorldOf(env), tokenizerOf(env), {
    games,
    seed: run.seed,
    maxSteps: run.config.maxSteps,
    maxSkillTokens: run.config.maxSkillTokens,
  });
  const { train, val } = splitRows(rows);
  const about = {
    about:
      "SEED Playground's hindsight-skill SFT rows: the paper's skill prompt of an episode and the rule-based annotator's skill",
    run: run.source,
    world: `${run.env} (${scale})`,
    repository: `${SEED_REPOSITORY.repo}@${SEED_REPOSITORY.commit}`,
  };
  return {
    train: await sftParquet(train, { ...about, split: 'train' }),
    val: await sftParquet(val, { ...about, split: 'val' }),
    rows: { train: train.length, val: val.length },
  };
}
