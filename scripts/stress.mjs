// `npm run test:stress`: the whole test suite on a machine kept busy. One spinning process per core (or
// STRESS_LOAD of them) competes with the suite for the CPU from start to end, as other work on a shared
// machine would; the load stops when the suite ends, and the exit status is the suite's.
//
//   node scripts/stress.mjs [command ...]      (default: npm test)
//   STRESS_LOAD=4 node scripts/stress.mjs true  (a dry run: four spinners around a command that does nothing)
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const command = process.argv.length > 2 ? process.argv.slice(2) : ['npm', 'test'];
const loadText = process.env.STRESS_LOAD ?? String(availableParallelism());
const load = Number(loadText);
if (!Number.isInteger(load) || load < 0 || load > 1024) {
  process.stderr.write(`stress: STRESS_LOAD must be a whole number in 0..1024, got "${loadText}"\n`);
  process.exit(2);
}

// Each spinner checks now and then that this process is still its parent, so that it ends even when this
// script is killed without a chance to stop it.
const SPIN = `const parent = process.ppid; for (;;) { const until = Date.now() + 200; while (Date.now() < until); if (process.ppid !== parent) process.exit(0); }`;
const spinners = Array.from({ length: load }, () => spawn(process.execPath, ['-e', SPIN], { stdio: 'ignore' }));
const stopLoad = () => {
  for (const s of spinners) if (s.exitCode === null && s.signalCode === null) s.kill('SIGKILL');
};

const label = command.join(' ');
process.stderr.write(`stress: ${load} busy process${load === 1 ? '' : 'es'} while \`${label}\` runs\n`);
const started = performance.now();
const suite = spawn(command[0], command.slice(1), { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    suite.kill(signal);
    stopLoad();
  });
}
suite.on('error', (err) => {
  stopLoad();
  process.stderr.write(`stress: could not start \`${label}\`: ${err.message}\n`);
  process.exit(127);
});
suite.on('exit', (code, signal) => {
  stopLoad();
  const seconds = Math.round((performance.now() - started) / 1000);
  const took = `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const outcome = code === 0 ? 'passed' : `failed (${signal ? `signal ${signal}` : `exit ${code}`})`;
  process.stderr.write(
    `stress: \`${label}\` ${outcome} in ${took} beside ${load} busy process${load === 1 ? '' : 'es'}\n`,
  );
  process.exit(code ?? 1);
});
