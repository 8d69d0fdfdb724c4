// Where a benchmark writes its report. `--out DIR` (default bench/) receives `<name>.md` (and a bench's
// other files beside it); a named run goes to `--out bench/runs/<label>`. A path ending in `.md` still names
// the report file itself, as the benches' --out did before it named a directory.
import { dirname, join } from 'node:path';
import { makeDir, writeAtomic } from '../cli/io.ts';
import { commandLine, commitLine, type SourceCommit } from '../cli/provenance.ts';
import { namedWorld, type EnvironmentName } from '../worlds/names.ts';

const DEFAULT_OUT = 'bench';

/** The declaration of a bench's --out option (help.ts), for the report `name` ("env.md"). */
export function outOption(name: string) {
  return {
    type: 'string',
    value: 'DIR',
    defaultText: `${DEFAULT_OUT}/`,
    description: `the directory that receives ${name} (a path ending in .md names the report file itself); a named run goes to bench/runs/<label>`,
  } as const;
}

/** A report's file name in a world: the default world's keeps its name, another's adds the world ("learn_shop"). */
export function reportName(name: string, world: EnvironmentName | undefined): string {
  const named = world === undefined ? undefined : namedWorld(world);
  return named === undefined ? name : `${name}_${named}`;
}

/** The file `name` (e.g. "learn.json") in the --out directory. */
export function outPath(out: string | undefined, name: string): string {
  return join(out === undefined || out === '' ? DEFAULT_OUT : out, name);
}

/** The report `name` (e.g. "kernels.md") in the --out directory, or --out itself when it names a .md file. */
export function reportPath(out: string | undefined, name: string): string {
  return out?.endsWith('.md') ? out : outPath(out, name);
}

/**
 * The opening lines of a report: its title, the command that produced it (with `detail` after it) and the
 * commit it ran on (`sourceCommit()` taken when the bench started).
 */
export function reportHead(
  title: string,
  bench: string,
  args: readonly string[],
  commit: SourceCommit | null,
  detail = '',
): string[] {
  return [`# ${title}`, '', `Command: \`${commandLine(`bench ${bench}`, args)}\`${detail}`, commitLine(commit), ''];
}

/** Writes one file of a report (its directory created), atomically, and says so on stderr. */
export async function writeOutput(path: string, text: string): Promise<void> {
  await makeDir(dirname(path));
  await writeAtomic(path, text);
  process.stderr.write(`wrote ${path}\n`);
}
