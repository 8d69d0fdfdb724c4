// Property tests of the command line's argument parsing: any arguments give parsed values, a one-line
// CliError (control characters escaped) or, when they ask for it, the help, never another exception; a number
// is accepted exactly when it is decimal, whole where a count is asked, and inside its range.
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { parsesOrRefuses, parsesOrRefusesAsync } from '../common/parser_testing.ts';
import { underflows } from '../common/setting_range.ts';
import { defaultConfig, checkConfig } from '../rl/config.ts';
import { applySetOptions, limitedNumber, parseOptions } from './args.ts';
import { CLI_COMMANDS } from './cli.ts';
import { CliError } from './cli_error.ts';
import { defineCommand, HelpRequest, wantsHelp } from './help.ts';
import { LIMITS, type Limit } from './limits.ts';

const dir = mkdtempSync(join(tmpdir(), 'seed-args-property-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const ALL_LIMITS: Limit[] = Object.values(LIMITS).flatMap((byOption) => Object.values(byOption) as Limit[]);
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

const numberText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc
    .tuple(
      fc.constantFrom('', ' ', '0x', '+', '-', '\n'),
      fc.nat({ max: 1e6 }),
      fc.constantFrom('', ' ', 'e3', '.5', 'e400', '\u001b'),
    )
    .map(([a, n, b]) => `${a}${n}${b}`),
);

/** Arguments as a person or a script might mistype them: option names, values, stray words, escapes. */
const words = fc.oneof(
  fc.constantFrom(
    '--count',
    '--seed',
    '--out',
    '--split',
    '--set',
    '--updates',
    '--resume',
    '--force',
    '-h',
    '--',
    '-',
    '--count=',
    '--x',
  ),
  fc.string({ unit: 'binary', maxLength: 10 }),
  numberText,
  fc.constantFrom(
    'constructor',
    '__proto__',
    'toString',
    'train',
    'seen',
    'groupSize=4',
    'lr=0x1',
    'maxSkillTokens=1e9',
    `${join(dir, 'missing')}`,
    '\u001b[2J',
    'a\nb',
  ),
);
const argv = fc.array(words, { maxLength: 10 });

describe('command-line numbers (property)', () => {
  it('are accepted exactly when decimal, read as written, whole and in plain digits for counts, and in range', () => {
    fc.assert(
      fc.property(numberText, fc.constantFrom(...ALL_LIMITS), (text, limit) => {
        if (parsesOrRefuses(() => limitedNumber(text, '--n', limit), CliError) === 'refused') return;
        const n = limitedNumber(text, '--n', limit);
        expect(DECIMAL.test(text)).toBe(true);
        expect(n).toBeGreaterThanOrEqual(limit.min);
        expect(n).toBeLessThanOrEqual(limit.max);
        if (limit.integer) expect(String(n)).toBe(text);
        expect(Number.isFinite(n) && !underflows(text, n)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('every whole number in a count range is accepted as written', () => {
    const counts = ALL_LIMITS.filter((l) => l.integer);
    fc.assert(
      fc.property(fc.constantFrom(...counts), fc.double({ min: 0, max: 1, noNaN: true }), (limit, at) => {
        const n = Math.round(limit.min + at * (limit.max - limit.min));
        expect(limitedNumber(String(n), '--n', limit)).toBe(n);
      }),
      { numRuns: 300 },
    );
  });
});

describe('command-line arguments (property)', () => {
  it('option parsing gives values or a one-line CliError', () => {
    const spec = defineCommand({
      name: 'test',
      summary: 'a command for the test',
      description: 'Takes options.',
      options: {
        count: { type: 'string', description: 'a count' },
        seed: { type: 'string', description: 'a seed' },
        out: { type: 'string', description: 'a directory' },
        set: { type: 'string', multiple: true, description: 'settings' },
        resume: { type: 'boolean', description: 'a flag' },
      },
    });
    fc.assert(
      fc.property(argv, (args) => {
        try {
          parsesOrRefuses(() => parseOptions(args, spec), CliError);
        } catch (err) {
          if (!(err instanceof HelpRequest)) throw err;
          expect(wantsHelp(args)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('--set gives a config that passes the settings check, or a one-line CliError', () => {
    const setting = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 20 }),
      fc.tuple(fc.constantFrom(...Object.keys(defaultConfig('tiny'))), numberText).map(([k, v]) => `${k}=${v}`),
    );
    fc.assert(
      fc.property(fc.array(setting, { maxLength: 4 }), (settings) => {
        if (parsesOrRefuses(() => applySetOptions(defaultConfig('tiny'), settings), CliError) === 'value') {
          expect(() => checkConfig(applySetOptions(defaultConfig('tiny'), settings))).not.toThrow();
        }
      }),
      { numRuns: 500 },
    );
  });

  it("the commands' own parsing: any arguments are refused in one line (or show the help they ask for) before any work (no file to read, no --out)", async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const commands = await Promise.all(
      ['scenes', 'play', 'expert', 'loss', 'eval', 'teacher', 'ckpt', 'export-onnx'].map(
        async (name) => [name, await CLI_COMMANDS[name]()] as const,
      ),
    );
    // --out is left out (a valid invocation of scenes or ckpt init would write), and every file named is missing.
    const safe = argv.filter((args) => !args.some((a) => a.startsWith('--out')));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...commands), safe, async ([, command], args) => {
        let help = false;
        const run = () =>
          command.run(args).catch((err: unknown) => {
            if (!(err instanceof HelpRequest)) throw err;
            help = true;
          });
        const outcome = await parsesOrRefusesAsync(run, CliError);
        if (help) expect(wantsHelp(args) || args.includes('help')).toBe(true);
        else expect(outcome).toBe('refused');
      }),
      { numRuns: 300 },
    );
  });
});
