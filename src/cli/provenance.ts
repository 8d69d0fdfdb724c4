// What a written report or card says about where it came from: the command that produced it and the commit
// of the source tree. Paths in them are relative to the working directory (the repository root under
// `npm run seed`), so a committed file names no machine's directories.
import { execFileSync } from 'node:child_process';
import { basename, isAbsolute, relative, resolve } from 'node:path';

/**
 * A path as a report may print it: relative to the working directory when it lies inside it, else only its
 * file name after ".../" (where a file outside the repository lived says nothing to a reader elsewhere).
 */
export function portablePath(path: string, cwd = process.cwd()): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(cwd, path);
  if (rel === '') return '.';
  return rel.startsWith('..') || isAbsolute(rel) ? `.../${basename(path)}` : rel;
}

/** `npm run seed -- <command> <args>` with every absolute path in an argument made portable. */
export function commandLine(command: string, args: readonly string[], cwd = process.cwd()): string {
  const portable = args.map((arg) => {
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    return eq > 0 ? `${arg.slice(0, eq + 1)}${portablePath(arg.slice(eq + 1), cwd)}` : portablePath(arg, cwd);
  });
  return [`npm run seed -- ${command}`, ...portable].join(' ');
}

export interface SourceCommit {
  /** `git rev-parse --short HEAD`. */
  hash: string;
  /** Whether the tree had changes outside bench/ (reports written earlier do not count) and the folders left out. */
  dirty: boolean;
}

/**
 * The commit the working tree is at, or null outside a git checkout. Changes under bench/ (reports) and under
 * the folders `ignore` names (a benchmark plan's folder, which its jobs write into) do not make it dirty; each
 * is that folder alone, its name taken literally (a folder named `*` leaves out no other).
 */
export function sourceCommit(cwd = process.cwd(), ignore: readonly string[] = []): SourceCommit | null {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  const excluded = ignore
    .map((path) => relative(cwd, resolve(cwd, path)))
    .filter((rel) => rel !== '' && !rel.startsWith('..') && !isAbsolute(rel))
    .map((rel) => `:(exclude,literal)${rel}`);
  try {
    const hash = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain', '--', ':/', ':(top,exclude)bench', ...excluded) !== '';
    return { hash, dirty };
  } catch {
    return null;
  }
}

/** "abc1234", "abc1234-dirty", or "unknown": the form a report's JSON records. */
export function commitId(commit: SourceCommit | null): string {
  return commit ? `${commit.hash}${commit.dirty ? '-dirty' : ''}` : 'unknown';
}

/** The commit as a report's text names it: "abc1234", with "(dirty: ...)" when the tree had changes. */
export function commitText(commit: SourceCommit | null): string {
  if (!commit) return 'unknown (not a git checkout)';
  return `${commit.hash}${commit.dirty ? ' (dirty: the tree had uncommitted changes)' : ''}`;
}

/** The line under a markdown report's command: which commit it was produced from. */
export function commitLine(commit: SourceCommit | null): string {
  return `Commit: ${commitText(commit)}.`;
}
