// `seed expert --scene FILE`: prints the expert's shortest solution of a scene, one command per line.
import { Game } from '../../env/index.ts';
import { SceneFileError, readSceneFile } from '../../env/scene_file.ts';
import { parseOptions, requireOption } from '../args.ts';
import { CliError } from '../cli_error.ts';

export const summary = "print the expert's commands that solve a scene JSON file, one per line";

const usage = 'npm run seed -- expert --scene FILE';

export async function run(args: string[]): Promise<number> {
  const { values } = parseOptions(args, { scene: { type: 'string' } }, usage);
  const path = requireOption(values.scene, 'scene', usage);
  const scene = await readSceneFile(path).catch((err: unknown) => {
    throw err instanceof SceneFileError ? new CliError(err.message) : err;
  });
  const plan = new Game(scene).expertPlan();
  process.stdout.write(plan.map((c) => c + '\n').join(''));
  process.stderr.write(`${plan.length} steps\n`);
  return 0;
}
