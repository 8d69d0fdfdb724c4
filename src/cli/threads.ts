// The CPU backend's threads on the command line: worker_threads, one per core (up to the backend's cap)
// unless `--threads N` before the command, or SEED_THREADS=N, says how many. The result of a run does not
// depend on it, bit for bit; only its speed does.
import { nodeThreadHost } from '../backend/cpu/thread_node.ts';
import { MAX_THREADS, installThreadHost, setCpuThreads } from '../backend/cpu/threads.ts';
import { CliError } from './cli_error.ts';

function parseThreads(text: string, where: string): number {
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && n <= MAX_THREADS))
    throw new CliError(`${where} must be an integer from 1 to ${MAX_THREADS}, got "${text}"`, 2);
  return n;
}

/** Installs the thread host and the thread count; returns argv without a leading `--threads N`. */
export function setUpThreads(argv: string[], env: Record<string, string | undefined>): string[] {
  installThreadHost(nodeThreadHost);
  let rest = argv;
  let threads: number | null = null;
  if (env.SEED_THREADS !== undefined && env.SEED_THREADS !== '')
    threads = parseThreads(env.SEED_THREADS, 'SEED_THREADS');
  const flag = argv[0]?.match(/^--threads(?:=(.*))?$/);
  if (flag) {
    const value = flag[1] ?? argv[1];
    if (value === undefined)
      throw new CliError('--threads needs a value: npm run seed -- --threads N <command> ...', 2);
    threads = parseThreads(value, '--threads');
    rest = argv.slice(flag[1] === undefined ? 2 : 1);
  }
  if (threads !== null) setCpuThreads(threads);
  return rest;
}
