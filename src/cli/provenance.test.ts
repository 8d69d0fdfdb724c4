import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLine, commitId, commitLine, portablePath, sourceCommit } from './provenance.ts';

describe('portablePath / commandLine: no machine directory in a written report', () => {
  it('an absolute path inside the working directory becomes relative; one outside keeps only its name', () => {
    expect(portablePath('/home/me/repo/public/warmstart-tiny.ckpt', '/home/me/repo')).toBe(
      'public/warmstart-tiny.ckpt',
    );
    expect(portablePath('/tmp/ws/b_primed.ckpt', '/home/me/repo')).toBe('.../b_primed.ckpt');
    expect(portablePath('/home/me/repo', '/home/me/repo')).toBe('.');
    expect(portablePath('bench/runs/x', '/home/me/repo')).toBe('bench/runs/x');
  });

  it('rewrites absolute paths in arguments, as a value and after --name=', () => {
    const args = ['--init', '/home/me/repo/bench/runs/primed/warmstart.ckpt', '--out=/tmp/ws/out', '--lrs', '5e-4'];
    expect(commandLine('bench learn', args, '/home/me/repo')).toBe(
      'npm run seed -- bench learn --init bench/runs/primed/warmstart.ckpt --out=.../out --lrs 5e-4',
    );
    expect(commandLine('bench kernels', [])).toBe('npm run seed -- bench kernels');
  });
});

describe('sourceCommit: the commit a report names', () => {
  it('in a git checkout: a short hash', () => {
    const commit = sourceCommit();
    if (!existsSync('.git')) return expect(commit).toBeNull();
    expect(commit?.hash).toMatch(/^[0-9a-f]{7,}$/);
    expect(commitId(commit)).toBe(`${commit!.hash}${commit!.dirty ? '-dirty' : ''}`);
  });

  it('says dirty, and unknown outside a git checkout', () => {
    expect(commitLine({ hash: 'abc1234', dirty: false })).toBe('Commit: abc1234.');
    expect(commitLine({ hash: 'abc1234', dirty: true })).toBe(
      'Commit: abc1234 (dirty: the tree had uncommitted changes).',
    );
    expect(commitId({ hash: 'abc1234', dirty: true })).toBe('abc1234-dirty');
    const outside = mkdtempSync(join(tmpdir(), 'seed-nogit-'));
    try {
      expect(sourceCommit(outside)).toBeNull();
      expect(commitLine(null)).toBe('Commit: unknown (not a git checkout).');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('sourceCommit: the folders a check for changes leaves out', () => {
  it('leaves out each folder alone, its name taken literally: a change beside one makes the tree dirty', () => {
    const repo = mkdtempSync(join(tmpdir(), 'seed-git-'));
    try {
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], {
          cwd: repo,
          stdio: 'ignore',
        });
      git('init', '-q');
      mkdirSync(join(repo, 'src', 'p'), { recursive: true });
      writeFileSync(join(repo, 'src', 'a.ts'), 'a');
      git('add', 'src/a.ts');
      git('commit', '-q', '-m', 'a');
      writeFileSync(join(repo, 'src', 'p', 'x'), 'x');
      const dirty = (ignore: string[]) => sourceCommit(repo, ignore)?.dirty;
      expect(dirty([])).toBe(true);
      expect(dirty(['src/p'])).toBe(false);
      expect(dirty([join(repo, 'src', 'p')])).toBe(false);
      writeFileSync(join(repo, 'src', 'b.ts'), 'b');
      expect(dirty(['src/p'])).toBe(true);
      expect(dirty(['src/*'])).toBe(true);
      rmSync(join(repo, 'src', 'b.ts'));
      writeFileSync(join(repo, 'src', 'a.ts'), 'edited');
      expect(dirty(['src/p'])).toBe(true);
      expect(dirty(['src'])).toBe(false);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
