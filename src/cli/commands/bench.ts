// `seed bench <name>`: benchmarks print a table on stdout and write a report under bench/.
// Each benchmark lives in src/cli/bench/<name>.ts and exports `summary` and `run(args)`.
import { quote } from '../../common/json.ts';
import { CliError } from '../cli_error.ts';

type Bench = { run(args: string[]): Promise<number>; summary: string };

const benches: Record<string, () => Promise<Bench>> = {
  env: () => import('../bench/env.ts'),
  cpu: () => import('../bench/cpu.ts'),
  kernels: () => import('../bench/kernels/main.ts'),
  learn: () => import('../bench/learn/main.ts'),
  soak: () => import('../bench/soak.ts'),
  onnx: () => import('../bench/onnx.ts'),
};

export const summary = 'benchmarks: ' + Object.keys(benches).join(', ');

export async function run(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  const load = name && Object.hasOwn(benches, name) ? benches[name] : undefined;
  if (!load) {
    const usage = `usage: npm run seed -- bench <${Object.keys(benches).join('|')}> [options]`;
    throw new CliError(name ? `unknown benchmark ${quote(name)}; ${usage}` : usage, 2);
  }
  const bench = await load().catch(() => {
    throw new CliError(`benchmark ${quote(name)} is not available in this build`);
  });
  return bench.run(rest);
}
