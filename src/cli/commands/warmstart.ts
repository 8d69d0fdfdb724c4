// `seed warmstart --preset P --seed S --out FILE [--episodes N] [--steps N] [--lr X] [--init FILE] [--eval-episodes N] [--teacher-games N] [--score-random] [--follow own|primed] [--kinds act,follow,analyze]`:
// builds the warm-start corpus (explorer acting, skill following, analyzer -> annotated skill), trains the
// preset on it from a seeded init, evaluates it, and writes the checkpoint and its JSON card (FILE with .json
// for .ckpt): corpus seed, steps, loss, success on eval-seen and eval-unseen, valid-skill rate, skill
// fidelity, and the teacher check with the policy's own skills and with the annotator's (`teacher`, on
// --teacher-games games, 512 by default, 0 to skip). The card goes to stdout.
import { CpuBackend } from '../../backend/cpu/cpu_backend.ts';
import { Rng } from '../../common/rng.ts';
import { TINY } from '../../env/scale.ts';
import { isPresetName, presetConfig, PRESETS } from '../../model/config.ts';
import { writeCheckpoint } from '../../model/checkpoint.ts';
import { initParameters } from '../../model/init.ts';
import { writeSkills } from '../../rl/analyzer.ts';
import { defaultConfig } from '../../rl/config.ts';
import { evalSplitScenes, evaluateSplits } from '../../rl/evaluate.ts';
import { skillFidelity } from '../../rl/skill_fidelity.ts';
import { SKILL_WRITERS, teacherCheck, teacherScenes, type SkillWriter, type TeacherCheck } from '../../rl/teacher_check.ts';
import type { Trajectory } from '../../rl/rollout.ts';
import { buildCorpus, EXAMPLE_KINDS, FOLLOW_KINDS, trainWarmStart, WARMSTART_DEFAULTS, type ExampleKind, type FollowKind, type WarmStartOptions } from '../../rl/warmstart.ts';
import { defaultTokenizer } from '../../text/tokenizer.ts';
import { quote } from '../../common/json.ts';
import { noPositionals, numberOption, parseOptions, requireOption } from '../args.ts';
import { CliError } from '../cli_error.ts';
import { progressBar, readCheckpointFile, writeAtomic } from '../io.ts';
import { LIMITS, withLimits } from '../limits.ts';
import { commandLine, portablePath } from '../provenance.ts';

export const summary = 'build the warm-start corpus, train a preset on it, write the checkpoint and its card';

const usage = withLimits(
  'npm run seed -- warmstart --preset micro|tiny|small --seed S --out FILE [--episodes N] [--steps N] [--lr X] [--init FILE] [--eval-episodes N] [--teacher-games N] [--score-random] [--follow own|primed] [--kinds act,follow,analyze]',
  LIMITS.warmstart,
);

export function cardPath(ckpt: string): string {
  return ckpt.endsWith('.ckpt') ? `${ckpt.slice(0, -5)}.json` : `${ckpt}.json`;
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    { preset: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' }, episodes: { type: 'string' }, steps: { type: 'string' }, lr: { type: 'string' }, init: { type: 'string' }, 'eval-episodes': { type: 'string' }, 'teacher-games': { type: 'string' }, 'score-random': { type: 'boolean' }, follow: { type: 'string' }, kinds: { type: 'string' } },
    usage,
  );
  noPositionals(positionals, usage);
  const preset = requireOption(values.preset, 'preset', usage);
  if (!isPresetName(preset)) throw new CliError(`unknown preset ${quote(preset)} (known: ${Object.keys(PRESETS).join(', ')})`, 2);
  const limits = LIMITS.warmstart;
  const seed = numberOption(values.seed, 'seed', limits.seed);
  const out = requireOption(values.out, 'out', usage);
  const options: WarmStartOptions = {
    ...WARMSTART_DEFAULTS,
    seed,
    scale: TINY,
    episodes: numberOption(values.episodes, 'episodes', limits.episodes, WARMSTART_DEFAULTS.episodes),
    steps: numberOption(values.steps, 'steps', limits.steps, WARMSTART_DEFAULTS.steps),
    lr: numberOption(values.lr, 'lr', limits.lr, WARMSTART_DEFAULTS.lr),
    scoreRandom: values['score-random'] === true,
    follow: (values.follow ?? WARMSTART_DEFAULTS.follow) as FollowKind,
    kinds: values.kinds === undefined ? WARMSTART_DEFAULTS.kinds : (values.kinds.split(',').map((k) => k.trim()) as ExampleKind[]),
  };
  const unknownKind = options.kinds.find((k) => !(EXAMPLE_KINDS as readonly string[]).includes(k));
  if (unknownKind !== undefined || options.kinds.length === 0) throw new CliError(`--kinds must list some of ${EXAMPLE_KINDS.join(', ')}, got ${quote(values.kinds)}`, 2);
  if (!(FOLLOW_KINDS as readonly string[]).includes(options.follow)) throw new CliError(`--follow must be one of ${FOLLOW_KINDS.join(', ')}, got ${quote(values.follow)}`, 2);
  const evalEpisodes = numberOption(values['eval-episodes'], 'eval-episodes', limits['eval-episodes'], 0);
  if (options.steps === 0 && values.init === undefined) throw new CliError('--steps 0 needs --init (there is nothing to evaluate otherwise)', 2);
  const tok = defaultTokenizer();
  const config = presetConfig(preset, tok.vocabSize);
  const t0 = performance.now();

  const corpus = buildCorpus(tok, config.contextLength, options);
  process.stderr.write(`corpus: ${corpus.sequences.length} examples (${JSON.stringify(corpus.counts)}), explorer success ${corpus.explorerSuccess.toFixed(3)}\n`);
  // --init continues the training of an earlier warm start (its steps add to this run's in the card).
  const init = values.init === undefined ? null : await readCheckpointFile(values.init, tok);
  if (init && init.params.length !== initParameters(config, 0).length) throw new CliError(`--init ${values.init} does not fit preset ${preset}`);
  const priorSteps = init && Number.isInteger(init.metadata.steps) && (init.metadata.steps as number) >= 0 ? (init.metadata.steps as number) : 0;
  const backend = new CpuBackend(config, init ? init.params : initParameters(config, seed));
  const bar = progressBar('warm start', options.steps);
  let tokens = 0;
  // --steps 0 with --init only evaluates an earlier warm start and writes its card (its loss is carried over).
  const priorLoss = init && typeof init.metadata.loss === 'number' ? init.metadata.loss : NaN;
  const loss = options.steps === 0 ? priorLoss : await trainWarmStart(backend, tok, corpus, options, (s) => {
    tokens += s.tokens;
    bar.update(s.step + 1, { info: `loss ${s.loss.toFixed(3)}` });
  });
  bar.stop();
  const trainSeconds = (performance.now() - t0) / 1000;

  const rl = defaultConfig(preset);
  const scenes = evalSplitScenes(evalEpisodes, TINY);
  const finished: Trajectory[] = [];
  const evalBar = progressBar('evaluate', scenes.seen.length + scenes.unseen.length);
  const { seen, unseen } = await evaluateSplits(backend, tok, rl, scenes, (t, split) => {
    if (split === 'seen') finished.push(t);
    evalBar.increment();
  });
  evalBar.stop();
  const sample = finished.slice(0, 48);
  // The card's valid-skill rate is what the policy writes freely; under the grammar mask (the tiny default in
  // training) every finished skill parses, so that rate is reported beside it.
  // Fidelity: how well the usable skills name the objects and places of their trajectories (skill_fidelity.ts).
  const rateOf = async (grammar: boolean) => {
    const skills = await writeSkills(backend, tok, sample, rl.maxSkillTokens, rl.analyzerTemperature, new Rng(seed).fork('skills'), { grammar });
    const usable = skills.map((s, i) => [s, sample[i]] as const).filter(([s]) => s.ok);
    const fidelity = usable.length ? usable.reduce((sum, [s, t]) => sum + skillFidelity(s.text, t.records, t.scene.task, t.won, tok, rl.maxSkillTokens), 0) / usable.length : null;
    return { skills, rate: skills.length ? usable.length / skills.length : 0, fidelity };
  };
  const { skills, rate: validSkillRate } = await rateOf(false);
  const { rate: validSkillRateGrammar, fidelity: skillFidelityGrammar } = await rateOf(true);
  // The teacher check (rl/teacher_check.ts) with both skill writers: does the policy play better with its own
  // hindsight skill of a game in context (what SEED distils), and with the annotator's faithful one?
  const teacherGames = numberOption(values['teacher-games'], 'teacher-games', limits['teacher-games'], 512);
  const teacher: Partial<Record<SkillWriter, TeacherCheck>> = {};
  if (teacherGames >= 2) {
    for (const writer of SKILL_WRITERS) {
      const teacherBar = progressBar(`teacher check (${writer})`, 4 * teacherGames);
      teacher[writer] = await teacherCheck(backend, tok, teacherScenes(teacherGames, TINY), rl, () => teacherBar.increment(), writer);
      teacherBar.stop();
    }
  }

  const card = {
    command: commandLine('warmstart', args),
    preset,
    corpus_seed: seed,
    corpus: { episodes: options.episodes, explorer_noise: options.noise, random_commands_scored: options.scoreRandom, follow: options.follow, kinds: options.kinds, explorer_success: corpus.explorerSuccess, examples: corpus.counts },
    steps: priorSteps + options.steps,
    continued_from: values.init === undefined ? null : portablePath(values.init),
    batch: options.batch,
    lr: options.lr,
    tokens,
    loss,
    eval_temperature: rl.evalTemperature,
    success_seen: seen.success,
    success_unseen: unseen.success,
    per_type_seen: seen.per_type,
    per_type_unseen: unseen.per_type,
    eval_episodes: { seen: seen.episodes, unseen: unseen.episodes },
    valid_skill_rate: validSkillRate,
    valid_skill_rate_grammar: validSkillRateGrammar,
    skill_fidelity_grammar: skillFidelityGrammar,
    skill_examples: skills.slice(0, 4).map((s) => s.text),
    teacher,
    train_seconds: Number(trainSeconds.toFixed(1)),
    vocab_hash: tok.hash,
  };
  const bytes = writeCheckpoint({
    config,
    vocabHash: tok.hash,
    params: await backend.readParameters(),
    optimizer: null,
    metadata: { stage: 'warmstart', preset, seed, steps: priorSteps + options.steps, episodes: options.episodes, loss, success_seen: seen.success, success_unseen: unseen.success, valid_skill_rate: validSkillRate },
  });
  await writeAtomic(out, bytes);
  await writeAtomic(cardPath(out), JSON.stringify(card, null, 2) + '\n');
  process.stderr.write(`wrote ${out} and ${cardPath(out)}\n`);
  process.stdout.write(JSON.stringify(card, null, 2) + '\n');
  return 0;
}
