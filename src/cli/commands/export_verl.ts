// `seed export-verl`: a run carried to the SEED repository's trainer (verl-agent based): its launch script and the
// skill SFT's dataset, written into one folder (`command` below holds the options and the full account, the --help
// text; docs/verl.md the mapping of every setting).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { quote } from '../../common/json.ts';
import { parseHash } from '../../rl/page_settings.ts';
import { playgroundDefaults, withRecordedDefaults } from '../../rl/recorded_defaults.ts';
import type { RecordedRun } from '../../rl/recorded_run.ts';
import { checkRecordIndex, newestRecord, parseRecordedRun } from '../../rl/recorded_run_check.ts';
import { runMetadata } from '../../rl/run_metadata.ts';
import { SEED_REPOSITORY } from '../../rl/verl/config_keys.ts';
import { DEFAULT_SFT_GAMES, sftFiles } from '../../rl/verl/carry.ts';
import {
  launchScript,
  NoCounterpartError,
  runsOfSettings,
  settingsThere,
  SFT_FILES,
  type LaunchScript,
  type RunToCarry,
} from '../../rl/verl/launch_script.ts';
import { numberText, uncarried } from '../../rl/verl/mapping.ts';
import { defaultConfig, type TrainConfig } from '../../rl/config.ts';
import { factsOf } from '../../worlds/facts.ts';
import { DEFAULT_WORLD, type EnvironmentName } from '../../worlds/names.ts';
import { noPositionals, numberOption, parseOptions, requireOption, usageError } from '../args.ts';
import { CliError } from '../cli_error.ts';
import { defineCommand, usageLine } from '../help.ts';
import { makeDir, readCheckpointBytes, writeAtomic } from '../io.ts';
import { LIMITS } from '../limits.ts';

export const command = defineCommand({
  name: 'export-verl',
  summary: "carry a run to the SEED repository's trainer: its launch script and the skill SFT's dataset",
  description:
    `Writes into OUT a launch script for the SEED repository's trainer (${SEED_REPOSITORY.repo} at ${SEED_REPOSITORY.commit.slice(0, 12)}, verl-agent based) with the run's algorithm, ` +
    'world and settings (lambda, gate beta, learning rate, group size, steps per episode, batch, KL settings), every key checked against the config keys of that commit: ' +
    "the paper's value for each setting the run left at the playground's defaults (which suit a small model), the run's own for each it changed. " +
    `Beside it, the paper's first stage as a dataset in veRL's SFT format: ${SFT_FILES.train} and ${SFT_FILES.val} (parquet, prompt and response columns), ` +
    "one row per episode of the expert and of the warm start's explorer on the run's training games, the prompt the paper's skill prompt with the task and the trajectory, the response the rule-based annotator's skill. " +
    "Prints a JSON summary on stdout: the files, the rows, the settings replaced by the paper's (fromPaper), those carried and those with no counterpart there.\n\n" +
    "The run is a run directory's last.ckpt (train --out DIR) or a page link's settings (--settings with the link's hash); a link that races SEED and GRPO (algo=both) gives a script for each. " +
    "An algorithm or a world with no counterpart there is refused, naming why; docs/verl.md has every setting's key.",
  options: {
    run: {
      type: 'string',
      value: 'DIR',
      defaultText: 'none: give --run or --settings',
      description: "a run directory (train --out DIR): its last.ckpt's algorithm, seed, world and settings",
    },
    settings: {
      type: 'string',
      value: 'HASH',
      defaultText: 'none: give --run or --settings',
      description:
        "a page link's settings: its hash (#env=...&algo=seed&...) or the whole link, read as the page reads it",
    },
    out: {
      type: 'string',
      value: 'OUT',
      required: true,
      description: 'the folder to write the script and the dataset into',
    },
    games: {
      type: 'string',
      value: 'N',
      limit: LIMITS.exportVerl.games,
      default: String(DEFAULT_SFT_GAMES),
      description:
        "training games of the dataset, each played once by the expert and once by the explorer (the paper's SFT: 180 tasks)",
    },
  },
});

const usage = usageLine(command);

/** The run of a run directory, as its last.ckpt records it, and the world's scale it played. */
async function runOfDir(dir: string): Promise<{ run: RunToCarry; scale: string }> {
  const path = join(dir, 'last.ckpt');
  const { checkpoint } = await readCheckpointBytes(path, null);
  let meta: ReturnType<typeof runMetadata>;
  try {
    meta = runMetadata(checkpoint);
  } catch (err) {
    throw new CliError(`${path}: ${(err as Error).message}`);
  }
  const env = meta.env ?? DEFAULT_WORLD;
  const worldDefaults: Readonly<Partial<TrainConfig>> = factsOf(env).trainDefaults;
  const run: RunToCarry = {
    algo: meta.algo as RunToCarry['algo'],
    env,
    preset: meta.preset,
    seed: meta.seed,
    config: meta.config,
    // What `train` runs with where no --set changes it.
    defaults: { ...defaultConfig(meta.preset), ...worldDefaults },
    source: `the run in ${dir} (${meta.algo}, ${meta.updates} update${meta.updates === 1 ? '' : 's'})`,
  };
  return { run, scale: meta.scale };
}

/**
 * The settings of --settings: a hash as it is, or a whole link by its hash (the part from its first #, as a
 * browser reads it); a link without one holds no settings and is refused.
 */
function hashOf(text: string): string {
  const at = text.indexOf('#');
  if (at > 0) return text.slice(at);
  if (at < 0 && /^[a-z][a-z\d+.-]*:\/\//i.test(text))
    throw new CliError(
      `--settings: the link ${quote(text)} holds no settings: the page's link has them after its #`,
      2,
    );
  return text;
}

/**
 * The record the page built from this checkout shows of a world (public/runs/, read as the page reads it), whose
 * settings are the page's defaults for a run of its world and preset; null where none ships or it is not read, as
 * the page then goes on with its own defaults.
 */
function shippedRecord(world: EnvironmentName): RecordedRun | null {
  try {
    const entry = newestRecord(checkRecordIndex(JSON.parse(readFileSync('public/runs/index.json', 'utf8'))), world);
    return entry ? parseRecordedRun(readFileSync(`public/runs/${entry.file}`, 'utf8')) : null;
  } catch {
    return null;
  }
}

/**
 * The runs of a link's settings, read against the defaults the page had for them; a setting the link names wrongly
 * is refused, not replaced by its default.
 */
function runsOfLink(link: string): RunToCarry[] {
  const { settings, notices, named } = parseHash(hashOf(link));
  if (notices.length > 0) {
    const n = notices[0];
    throw new CliError(`--settings: ${n.more ? n.reason : `${n.key}=${n.value} ${n.reason}`}`, 2);
  }
  // As the page opens a link: a setting it does not name takes the recorded run's value, the default it is there.
  const record = shippedRecord(settings.env);
  const page = withRecordedDefaults(settings, record, named);
  return runsOfSettings(page, playgroundDefaults(page, record));
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, command);
  noPositionals(positionals, usage);
  const out = requireOption(values.out, 'out', usage);
  const games = numberOption(values.games, 'games', LIMITS.exportVerl.games);
  if ((values.run === undefined) === (values.settings === undefined))
    throw usageError('give exactly one of --run DIR and --settings HASH', usage);
  const { runs, scale } =
    values.run !== undefined
      ? await runOfDir(values.run).then(({ run, scale }) => ({ runs: [run], scale }))
      : { runs: runsOfLink(values.settings!), scale: 'tiny' };
  let scripts: LaunchScript[];
  try {
    scripts = runs.map(launchScript);
  } catch (err) {
    if (err instanceof NoCounterpartError) throw new CliError(err.message);
    throw err;
  }
  await makeDir(out);
  process.stderr.write(`export-verl: ${games} games of the ${runs[0].env}, by the expert and the explorer\n`);
  const dataset = await sftFiles(runs[0], games, scale);
  for (const s of scripts) await writeAtomic(join(out, s.file), s.text);
  await writeAtomic(join(out, SFT_FILES.train), dataset.train);
  await writeAtomic(join(out, SFT_FILES.val), dataset.val);
  const there = settingsThere(runs[0]);
  const summary = {
    out,
    repository: SEED_REPOSITORY,
    scripts: scripts.map((s, i) => ({
      file: s.file,
      algo: runs[i].algo,
      keys: s.keys.main_ppo.length + s.keys.sft.length,
    })),
    dataset: { [SFT_FILES.train]: dataset.rows.train, [SFT_FILES.val]: dataset.rows.val },
    fromPaper: there.fromPaper.map((c) => `${c.key} = ${numberText(c.paper)} (the run's ${numberText(c.run)})`),
    carried: there.carried.map((c) => `${c.key} = ${numberText(c.run)} (paper ${numberText(c.paper)})`),
    noCounterpart: uncarried(runs[0].config).map((u) => `${u.key} = ${u.value} (paper ${u.paper})`),
  };
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  return 0;
}
