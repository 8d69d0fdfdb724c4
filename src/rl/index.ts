// The trainer's public face for the worker, the page and the CLI.
export { ALGOS, PAPER_CONFIG, applySettings, checkConfig, defaultConfig, isAlgo, isConfigKey, type Algo, type TrainConfig } from './config.ts';
export {
  STAGES, Trainer, updateRng,
  type Stage, type TrainerCallbacks, type TrainerOptions, type UpdateMetrics, type UpdateState,
} from './trainer.ts';
export { rollout, episodeText, totalReward, SKILL_RESERVE, type RolloutOptions, type Trajectory } from './rollout.ts';
export { groupAdvantages, groupStats, ADVANTAGE_EPS } from './advantages.ts';
export { writeSkills, checkSkill, type WrittenSkill } from './analyzer.ts';
export { evaluate, summarise, EVAL_SAMPLING_SEED, type EvalResult } from './evaluate.ts';
export { runCheckpoints, restoreRun, runMetadata, type RunMetadata } from './run_state.ts';
export { buildCorpus, trainWarmStart, warmStartLr, WARMSTART_DEFAULTS, type Corpus, type WarmStartOptions } from './warmstart.ts';
export { annotate } from './annotator.ts';
export { runExplorer, explorerCommand, type ExplorerEpisode, type ExplorerOptions } from './explorer.ts';
export { packBatch, insertBlock, scoredCount, type ScoredSequence } from './batch.ts';
