// `seed expert --scene FILE`: prints the expert's shortest solution of a scene, one command per line.
import { Game } from '../../env/index.ts';
import { noPositionals, parseOptions, requireOption } from '../args.ts';
import { readSceneInput } from '../io.ts';

export const summary = "print the expert's commands that solve a scene JSON file, one per line";

const usage = 'npm run seed -- expert --scene FILE';

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, { scene: { type: 'string' } }, usage);
  noPositionals(positionals, usage);
  const scene = await readSceneInput(requireOption(values.scene, 'scene', usage));
  const plan = new Game(scene).expertPlan();
  process.stdout.write(plan.map((c) => c + '\n').join(''));
  process.stderr.write(`${plan.length} steps\n`);
  return 0;
}
