// The whole command line: the CLI's own commands (cli.ts) and the lab's, the benchmarks (`bench`) and the worlds'
// research probes (src/worlds/lab.ts), in the order the help lists them. The lab sits above the CLI: it uses the
// CLI's options, files and errors, and the CLI knows nothing of it.
import { CLI_COMMANDS, type CommandTable } from '../cli/cli.ts';
import { WORLD_COMMANDS } from '../worlds/lab.ts';

const { 'export-onnx': exportOnnx, 'export-verl': exportVerl, ...playAndTrain } = CLI_COMMANDS;

/** Every command of `npm run seed`. */
export const SEED_COMMANDS: CommandTable = {
  ...playAndTrain,
  ...WORLD_COMMANDS,
  bench: () => import('./bench.ts'),
  'export-onnx': exportOnnx,
  'export-verl': exportVerl,
};
