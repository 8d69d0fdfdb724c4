// `seed scenes --split train|seen|unseen --count N --seed S --out DIR [--scale tiny|alfworld]`: writes N
// generated scenes as scene JSON files (DIR/<split>-<seed>-<index>.json) and prints their paths on stdout.
// The fixed evaluation sets are --split seen --count 140 and --split unseen --count 134 with --seed 2026.
import { join } from 'node:path';
import { SCALES, SPLITS, generateScene, sceneToJson, type Split } from '../../env/index.ts';
import { parseIntOption, parseOptions, requireOption } from '../args.ts';
import { CliError } from '../cli_error.ts';
import { makeDir, writeAtomic } from '../io.ts';

export const summary = 'write generated household scenes (train, eval-seen or eval-unseen) as scene JSON files';

const usage = 'npm run seed -- scenes --split train|seen|unseen --count N --seed S --out DIR [--scale tiny|alfworld]';

export async function run(args: string[]): Promise<number> {
  const { values } = parseOptions(
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
  const split = requireOption(values.split, 'split', usage);
  if (!(SPLITS as readonly string[]).includes(split)) throw new CliError(`--split must be one of ${SPLITS.join(', ')}, got "${split}"`, 2);
  const count = parseIntOption(requireOption(values.count, 'count', usage), 'count');
  if (count < 1) throw new CliError(`--count must be at least 1, got ${count}`, 2);
  const seed = parseIntOption(requireOption(values.seed, 'seed', usage), 'seed');
  if (seed < 0 || seed > 0xffffffff) throw new CliError(`--seed must be in 0..4294967295, got ${seed}`, 2);
  const out = requireOption(values.out, 'out', usage);
  const scale = SCALES[values.scale ?? 'tiny'];
  if (!scale) throw new CliError(`--scale must be one of ${Object.keys(SCALES).join(', ')}, got "${values.scale}"`, 2);
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
