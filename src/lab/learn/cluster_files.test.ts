// The files that run a planned `bench learn` elsewhere (docs/cluster.md) parse, and run the per-job command the
// plan prints: the GitHub Actions workflow (a plan job, a chain of rounds of the reusable round workflow, each
// fed by the one before, and a finish job), the round (a matrix of the given job numbers, then --collect), the
// Kubernetes Indexed Job and the Slurm array script; every shell script in them is valid bash. The documents
// give the commands.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { jobCommand } from './jobs/plan_dir.ts';

const rootDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const read = (path: string) => readFileSync(join(rootDir, path), 'utf8');
// biome-ignore lint/suspicious/noExplicitAny: parsed YAML is walked field by field below.
type Yaml = any;
const yaml = (path: string): Yaml => parse(read(path));

/** Refuses a shell script that bash cannot parse (a workflow's expressions stand in as words). */
function expectBash(script: string, what: string): void {
  const checked = spawnSync('bash', ['-n'], { input: script.replace(/\$\{\{[^}]*\}\}/g, 'X'), encoding: 'utf8' });
  expect(checked.status, `${what}: ${checked.stderr}`).toBe(0);
}

/** The `run:` scripts of a workflow's jobs. */
const scripts = (workflow: Yaml): [string, string][] =>
  Object.entries(workflow.jobs as Record<string, Yaml>).flatMap(([name, job]) =>
    ((job.steps ?? []) as Yaml[]).filter((s) => typeof s.run === 'string').map((s) => [name, s.run as string]),
  );

const PLAN = 'bench/plan';
/** A workflow's expression, as GitHub writes it. */
const expression = (text: string) => `\${{ ${text} }}`;

/** A script's quoted job and result paths ("$DIR/jobs/$N.json") as the per-job command writes them, unquoted. */
const unquoted = (script: string, dir: string) =>
  script.replaceAll(`"${dir}/`, `${dir}/`).replaceAll('.json"', '.json');

describe('bench learn on other machines: the files', () => {
  it('the workflow plans, then runs a bounded chain of rounds, each fed by the one before', () => {
    const flow = yaml('.github/workflows/bench-learn.yml');
    const round = yaml('.github/workflows/bench-learn-round.yml');
    const inputs = flow.on.workflow_dispatch.inputs;
    expect(Object.keys(inputs)).toEqual(
      expect.arrayContaining(['preset', 'algos', 'seeds', 'updates', 'lambdas', 'options', 'continue_from']),
    );
    const plan = scripts(flow).find(([job, run]) => job === 'plan' && run.includes('--plan'));
    expect(plan?.[1]).toContain(`npm run seed -- bench learn "\${args[@]}" "\${more[@]}" --plan ${PLAN}`);
    const rounds = Object.keys(flow.jobs).filter((j) => /^round\d+$/.test(j));
    expect(rounds.length).toBeGreaterThanOrEqual(8);
    const called = round.on.workflow_call.inputs;
    rounds.forEach((name, i) => {
      const job = flow.jobs[name];
      const before = i === 0 ? 'plan' : rounds[i - 1];
      expect(name).toBe(`round${i + 1}`);
      expect(job.uses).toBe('./.github/workflows/bench-learn-round.yml');
      expect(job.needs).toBe(before);
      expect(job.if).toBe(`needs.${before}.outputs.done == 'false'`);
      expect(job.with).toEqual({ round: i + 1, matrix: expression(`needs.${before}.outputs.matrix`) });
    });
    expect(Object.keys(called).sort()).toEqual(['matrix', 'round']);
    expect(Object.keys(round.on.workflow_call.outputs).sort()).toEqual(['done', 'matrix']);
    expect(flow.jobs.finish.needs).toEqual(['plan', ...rounds]);
    expect(flow.jobs.plan.outputs).toEqual(round.jobs.collect.outputs);
    for (const [job, run] of [...scripts(flow), ...scripts(round)]) expectBash(run, job);
  });

  it('a round runs each job of its matrix by the per-job command, then collects', () => {
    const round = yaml('.github/workflows/bench-learn-round.yml');
    expect(round.jobs.run.strategy.matrix.job).toBe(expression('fromJSON(inputs.matrix)'));
    expect(round.jobs.run.strategy['fail-fast']).toBe(false);
    const runs = scripts(round).map(([, run]) => run);
    expect(runs).toContain(jobCommand(PLAN, expression('matrix.job')));
    expect(runs).toContain(`npm run seed -- bench learn --collect ${PLAN} --out bench/report`);
    expect(round.jobs.collect.needs).toBe('run');
    expect(round.jobs.collect.if).toBe(expression('!cancelled()'));
  });

  it('the Kubernetes Indexed Job and the Slurm array run the same command per index', () => {
    const k8s = yaml('cluster/k8s/bench-learn-job.yaml');
    expect([k8s.apiVersion, k8s.kind, k8s.spec.completionMode]).toEqual(['batch/v1', 'Job', 'Indexed']);
    // docs/cluster.md sets both to the phase's jobs with sed on these lines.
    expect(read('cluster/k8s/bench-learn-job.yaml')).toMatch(/^ {2}completions: 1$/m);
    expect(read('cluster/k8s/bench-learn-job.yaml')).toMatch(/^ {2}parallelism: 1$/m);
    expect(k8s.spec.template.spec.restartPolicy).toBe('Never');
    const [container] = k8s.spec.template.spec.containers;
    const pod = container.args[0] as string;
    expectBash(pod, 'the pod');
    expect(pod).toContain('JOB_COMPLETION_INDEX');
    expect(unquoted(pod, '$PLAN')).toContain(jobCommand('$PLAN', '$N'));
    expect(unquoted(pod, '$PLAN')).toContain('--progress $PLAN/progress/$N');
    const slurm = read('cluster/slurm/bench-learn.sbatch');
    expectBash(slurm, 'the sbatch script');
    expect(slurm).toMatch(/^#SBATCH --cpus-per-task=/m);
    expect(slurm).toContain('N="${SLURM_ARRAY_TASK_ID:?');
    expect(unquoted(slurm, '$DIR')).toContain(jobCommand('$DIR', '$N'));
    expect(unquoted(slurm, '$DIR')).toContain('--progress $DIR/progress/$N');
  });

  it('docs/cluster.md and README give the commands of both paths', () => {
    const docs = read('docs/cluster.md');
    const readme = read('README.md');
    expect(docs).toContain(jobCommand('DIR', 'N'));
    for (const text of [docs, readme]) {
      expect(text).toContain(jobCommand(PLAN, 'N'));
      expect(text).toMatch(/npm run seed -- bench learn [^\n]*--plan bench\/plan/);
      expect(text).toContain(`npm run seed -- bench learn --collect ${PLAN}`);
    }
    expect(docs).toContain('npm run seed -- bench learn OPTIONS');
  });
});
