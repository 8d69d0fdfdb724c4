// `seed bench env`: the environment's speed, the expert's solutions and the replay of the ALFWorld transcripts;
// its options and report are declared in `command` below (the --help text).
import { Rng } from '../../../common/rng.ts';
import { Game } from '../env/game.ts';
import { SPLITS, generateScene } from '../env/splits.ts';
import { ALFWORLD, TINY, type RoomScale } from '../env/scale.ts';
import type { Scene } from '../env/scene.ts';
import { TASK_TYPES } from '../env/text.ts';
import { loadTranscripts, replayTranscript } from '../env/transcripts.ts';
import { numberOption, parseOptions } from '../../../cli/args.ts';
import { defineCommand } from '../../../cli/help.ts';
import { LIMITS } from '../../../cli/limits.ts';
import { sourceCommit } from '../../../cli/provenance.ts';
import { outOption, reportHead, reportPath, writeOutput } from '../../../lab/output.ts';

export const command = defineCommand({
  name: 'bench env',
  summary: 'environment steps per second, expert step distribution, ALFWorld transcript match rate',
  description:
    "The environment's speed in Node (steps per second of random admissible walks, with and without listing the admissible commands each step, and scene generation), " +
    'the expert over N generated games of every split at both scales (solved within max steps, step distribution per task type), and the replay of the real ALFWorld ' +
    'transcripts kept in src/worlds/household/env/testdata/alfworld-transcripts. Prints tables on stdout and writes env.md.',
  options: {
    games: {
      type: 'string',
      value: 'N',
      limit: LIMITS.benchEnv.games,
      default: '1000',
      description: 'games the expert plays per split and scale',
    },
    steps: {
      type: 'string',
      value: 'N',
      limit: LIMITS.benchEnv.steps,
      default: '300000',
      description: 'environment steps timed per scale',
    },
    out: outOption('env.md'),
  },
});
const SCALE_LIST = [TINY, ALFWORLD];

interface Speed {
  scale: string;
  withAdmissible: number;
  stepOnly: number;
  scenesPerSecond: number;
}

/** Random admissible walks: `steps` commands in episodes of the scale's length, new scene per episode. */
function measureSpeed(scale: RoomScale, steps: number): Speed {
  const rng = new Rng(1);
  const scenes = Array.from({ length: 200 }, (_, i) => generateScene('train', i, scale));
  walk(scenes, scale, rng, 20_000);
  let t0 = performance.now();
  for (let i = 0; i < 2000; i++) generateScene('train', 1000 + i, scale);
  const scenesPerSecond = 2000 / ((performance.now() - t0) / 1000);
  // Walk once listing the admissible commands every step (what a constrained agent needs), recording the
  // commands, then replay the same commands without listing (what a free agent needs).
  t0 = performance.now();
  const recorded = walk(scenes, scale, rng, steps);
  const withAdmissible = steps / ((performance.now() - t0) / 1000);
  t0 = performance.now();
  recorded.forEach((commands, e) => {
    const game = new Game(scenes[e % scenes.length], { maxSteps: scale.maxSteps });
    for (const c of commands) game.step(c);
  });
  const stepOnly = steps / ((performance.now() - t0) / 1000);
  return { scale: scale.name, withAdmissible, stepOnly, scenesPerSecond };
}

/** `steps` random admissible commands over the scenes in turn (one episode each); returns the commands. */
function walk(scenes: Scene[], scale: RoomScale, rng: Rng, steps: number): string[][] {
  const recorded: string[][] = [];
  let done = 0;
  for (let e = 0; done < steps; e++) {
    const game = new Game(scenes[e % scenes.length], { maxSteps: scale.maxSteps });
    const commands: string[] = [];
    while (!game.done && done < steps) {
      const command = rng.pick(game.admissibleCommands());
      game.step(command);
      commands.push(command);
      done++;
    }
    recorded.push(commands);
  }
  return recorded;
}

interface ExpertRow {
  scale: string;
  split: string;
  games: number;
  solved: number;
  steps: Map<string, number[]>;
  receptacles: number;
  objects: number;
}

function runExpert(scale: RoomScale, split: (typeof SPLITS)[number], games: number): ExpertRow {
  const steps = new Map<string, number[]>();
  let solved = 0;
  let receptacles = 0;
  let objects = 0;
  for (let i = 0; i < games; i++) {
    const scene = generateScene(split, i, scale);
    receptacles += scene.receptacles.length;
    objects += scene.objects.length;
    const game = new Game(scene, { maxSteps: scale.maxSteps });
    const plan = game.expertPlan();
    for (const c of plan) if (!game.done) game.step(c);
    if (game.won && game.steps === plan.length) solved++;
    const list = steps.get(game.scene.task.type) ?? [];
    list.push(plan.length);
    steps.set(game.scene.task.type, list);
  }
  return { scale: scale.name, split, games, solved, steps, receptacles: receptacles / games, objects: objects / games };
}

function stats(values: number[]): { n: number; min: number; mean: number; median: number; p90: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return { n: sorted.length, min: sorted[0], mean, median: at(0.5), p90: at(0.9), max: sorted[sorted.length - 1] };
}

function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export async function run(args: string[]): Promise<number> {
  const { values } = parseOptions(args, command);
  const commit = sourceCommit();
  const games = numberOption(values.games, 'games', LIMITS.benchEnv.games);
  const steps = numberOption(values.steps, 'steps', LIMITS.benchEnv.steps);

  process.stderr.write('measuring steps per second...\n');
  const speeds = SCALE_LIST.map((s) => measureSpeed(s, steps));
  const speedTable = table(
    ['scale', 'steps/s (admissible listed + step)', 'steps/s (step only)', 'scenes generated/s'],
    speeds.map((s) => [
      s.scale,
      Math.round(s.withAdmissible).toLocaleString('en'),
      Math.round(s.stepOnly).toLocaleString('en'),
      Math.round(s.scenesPerSecond).toLocaleString('en'),
    ]),
  );

  process.stderr.write(`expert on ${games} games per split and scale...\n`);
  const expertRows = SCALE_LIST.flatMap((scale) => SPLITS.map((split) => runExpert(scale, split, games)));
  const solvedTable = table(
    ['scale', 'split', 'games', 'solved within max steps', 'max steps', 'receptacles (mean)', 'objects (mean)'],
    expertRows.map((r) => [
      r.scale,
      r.split,
      r.games,
      `${r.solved} (${((100 * r.solved) / r.games).toFixed(1)}%)`,
      r.scale === 'tiny' ? TINY.maxSteps : ALFWORLD.maxSteps,
      r.receptacles.toFixed(1),
      r.objects.toFixed(1),
    ]),
  );
  const distRows: (string | number)[][] = [];
  for (const scale of SCALE_LIST) {
    for (const type of TASK_TYPES) {
      const all = expertRows.filter((r) => r.scale === scale.name).flatMap((r) => r.steps.get(type) ?? []);
      const s = stats(all);
      distRows.push([scale.name, type, s.n, s.min, s.mean.toFixed(2), s.median, s.p90, s.max]);
    }
  }
  const distTable = table(['scale', 'task type', 'games', 'min', 'mean', 'median', 'p90', 'max'], distRows);

  const comparisons = loadTranscripts().flatMap((t) => replayTranscript(t).comparisons);
  const matched = comparisons.filter((c) => c.match).length;
  const flagged = comparisons.filter((c) => c.flagged).length;
  const transcriptLine = `${matched}/${comparisons.length} observations match`;
  const misses = comparisons
    .filter((c) => !c.match)
    .map((c) => `- ${c.file} step ${c.step} \`${c.action}\`${c.flagged ? ' (flagged in the data)' : ''}`);
  const transcriptText =
    `${matched} of ${comparisons.length} observations match (${((100 * matched) / comparisons.length).toFixed(1)}%; ` +
    `${flagged} of the mismatches are steps the data itself flags as not engine text). Mismatches:\n\n${misses.join('\n')}\n\n` +
    'The README demo (2021) lists items unsorted (an older TextWorld); the other unflagged mismatches are ' +
    'receptacles that share one spot in ALFWorld scenes (`go to` the second one says "Nothing happens."), a quirk ' +
    'this environment does not copy.';

  const report = [
    ...reportHead(
      'Environment benchmark',
      'env',
      ['--games', String(games), '--steps', String(steps)],
      commit,
      ` (Node ${process.version}, ${new Date().toISOString().slice(0, 10)}).`,
    ),
    '## Speed',
    '',
    `Random admissible walks over 200 training scenes, ${steps.toLocaleString('en')} steps per scale, episodes of the scale's max steps.`,
    '',
    speedTable,
    '',
    '## Expert',
    '',
    solvedTable,
    '',
    'Expert plan length (optimal) per task type, all splits together:',
    '',
    distTable,
    '',
    '## Real ALFWorld transcripts',
    '',
    transcriptText,
    '',
  ].join('\n');
  process.stdout.write(`${speedTable}\n\n${solvedTable}\n\n${distTable}\n\nALFWorld transcripts: ${transcriptLine}\n`);
  await writeOutput(reportPath(values.out, 'env.md'), report);
  return 0;
}
