// `seed scenes --split train|seen|unseen --count N --seed S --out DIR [--scale tiny|alfworld]`: writes N
// generated scenes as scene JSON files (DIR/<split>-<seed>-<index>.json) and prints their paths on stdout.
// The fixed evaluation sets are --split seen --count 140 and --split unseen --count 134 with --seed 2026.
import { join } from 'node:path';
import { SCALES, SPLITS, generateScene, sceneToJson, type Split } from '../../env/index.ts';
import { quote } from '../../common/json.ts';
import { noPositionals, numberOption, parseOptions, requireOption } from '../args.ts';
import { CliError } from '../cli_error.ts';
import { makeDir, writeAtomic } from '../io.ts';
import { LIMITS, withLimits } from '../limits.ts';

export const summary = 'write generated household scenes (train, eval-seen or eval-unseen) as scene JSON files';

const usage = withLimits('npm run seed -- scenes --split train|seen|unseen --count N --seed S --out DIR [--scale tiny|alfworld]', LIMITS.scenes);

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    {
      split: { type: 'string' },
      count: { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      scale: { type: 'string', default: 'tiny' },
    },
    usage,
  );
  noPositionals(positionals, usage);
  const split = requireOption(values.split, 'split', usage);
  if (!(SPLITS as readonly string[]).includes(split)) throw new CliError(`--split must be one of ${SPLITS.join(', ')}, got ${quote(split)}`, 2);
  const count = numberOption(values.count, 'count', LIMITS.scenes.count);
  const seed = numberOption(values.seed, 'seed', LIMITS.scenes.seed);
  const out = requireOption(values.out, 'out', usage);
  const scaleName = values.scale ?? 'tiny';
  const scale = Object.hasOwn(SCALES, scaleName) ? SCALES[scaleName] : undefined;
  if (!scale) throw new CliError(`--scale must be one of ${Object.keys(SCALES).join(', ')}, got ${quote(scaleName)}`, 2);
  await makeDir(out);
  const width = String(count - 1).length;
  for (let i = 0; i < count; i++) {
    const path = join(out, `${split}-${seed}-${String(i).padStart(width, '0')}.json`);
    await writeAtomic(path, sceneToJson(generateScene(split as Split, i, scale, seed)));
    process.stdout.write(path + '\n');
  }
  process.stderr.write(`wrote ${count} ${scale.name} ${split} scenes (seed ${seed}) to ${out}\n`);
  return 0;
}
