// The SEED repository's config keys, vendored as data (seed_config_keys.json: each key's dotted name and default,
// with the file and the commit they were read from). A launch script that `export-verl` writes sets only keys of
// this list (config_keys.test.ts), so a key the trainer would refuse, or silently read as a new one, is found here
// rather than on a cluster.
import vendored from './seed_config_keys.json';

/** The two entry points the script calls: the RL trainer (main_ppo) and the SFT trainer of the skill stage. */
export type EngineConfig = 'main_ppo' | 'sft';

export type ConfigValue = string | number | boolean | null | readonly unknown[] | Readonly<Record<string, unknown>>;

/** The repository and commit the keys were read from. */
export const SEED_REPOSITORY: { readonly repo: string; readonly commit: string } = {
  repo: vendored.repository,
  commit: vendored.commit,
};

const KEYS: Readonly<Record<EngineConfig, ReadonlyMap<string, ConfigValue>>> = {
  main_ppo: new Map(Object.entries(vendored.configs.main_ppo.keys) as [string, ConfigValue][]),
  sft: new Map(Object.entries(vendored.configs.sft.keys) as [string, ConfigValue][]),
};

/** The file of the repository that declares a config's keys: "verl/trainer/config/ppo_trainer.yaml". */
export function configFile(config: EngineConfig): string {
  return vendored.configs[config].file;
}

/** Whether the config declares `key` (a dotted name). */
export function isEngineKey(config: EngineConfig, key: string): boolean {
  return KEYS[config].has(key);
}

/** The default a config declares for `key`; undefined for a key it does not declare. */
export function engineDefault(config: EngineConfig, key: string): ConfigValue | undefined {
  return KEYS[config].get(key);
}

/** The keys among `keys` that the config does not declare, each once, in order. */
export function unknownKeys(config: EngineConfig, keys: Iterable<string>): string[] {
  return [...new Set([...keys].filter((key) => !isEngineKey(config, key)))];
}
