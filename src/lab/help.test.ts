// --help of every command, derived from the declarations: it exits 0 on stdout and states every declared
// option with its type, range and default; every declared option is one the command's parser accepts; the
// group and top-level helps list every member.
import { afterAll, describe, expect, it } from 'vitest';
import { installThreadHost } from '../backend/cpu/threads.ts';
import { runCli } from '../cli/cli.ts';
import { SEED_COMMANDS as commands } from './commands.ts';
import { PRESET_NAMES } from '../model/config.ts';
import { factsOf, theWorld } from '../worlds/facts.ts';
import { ENVIRONMENT_NAMES } from '../worlds/names.ts';
import { describeLimit } from '../cli/limits.ts';
import { optionDefault, optionType, summaryOf, type CommandModule, type CommandSpec } from '../cli/help.ts';
import { runCaptured } from '../cli/testing.ts';

afterAll(() => installThreadHost(null));

const cli = (args: string[]) => runCaptured((a) => runCli(a, commands), args);
/** Help text with its line breaks and indentation folded, so a wrapped phrase reads as written. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

/** Every command as the words that name it, with its declaration: groups are walked into. */
async function leaves(): Promise<{ path: string[]; spec: CommandSpec }[]> {
  const out: { path: string[]; spec: CommandSpec }[] = [];
  const walk = async (path: string[], m: CommandModule): Promise<void> => {
    if ('command' in m) {
      out.push({ path, spec: m.command });
      return;
    }
    for (const [name, load] of Object.entries(m.group.members)) await walk([...path, name], await load());
  };
  for (const [name, load] of Object.entries(commands)) await walk([name], await load());
  return out;
}

const all = await leaves();

describe('--help', () => {
  it('covers every command, the bench and ckpt members included', () => {
    const names = all.map((l) => l.path.join(' '));
    expect(names).toEqual(
      expect.arrayContaining([
        'train',
        'warmstart',
        'teacher',
        'eval',
        'ckpt init',
        'ckpt inspect',
        'bench learn',
        'bench kernels',
        'bench cpu',
        'export-onnx',
      ]),
    );
    for (const { path, spec } of all) expect(spec.name).toBe(path.join(' '));
  });

  it.each(all.map((l) => [l.path.join(' '), l] as const))(
    '%s: exits 0 with every option, its type, range and default',
    async (_, { path, spec }) => {
      const { code, stdout, stderr } = await cli([...path, '--help']);
      expect(code).toBe(0);
      expect(stderr).toBe('');
      const text = flat(stdout);
      expect(text).toContain(`usage: npm run seed -- ${spec.name}`);
      expect(text).toContain(flat(spec.description));
      for (const [name, o] of Object.entries(spec.options)) {
        expect(stdout, `--${name}`).toMatch(new RegExp(`^  --${name}(?: |$)`, 'm'));
        expect(text).toContain(flat(o.description));
        if (o.limit) expect(text).toContain(describeLimit(o.limit));
        if (optionType(o)) expect(text).toContain(flat(optionType(o)));
        expect(text).toContain(o.required ? 'required' : flat(`default: ${optionDefault(o)}`));
      }
      // -h and `help <command>` give the same text.
      expect((await cli([...path, '-h'])).stdout).toBe(stdout);
      expect((await cli(['help', ...path])).stdout).toBe(stdout);
    },
  );

  it('every option that is not required states its default; a fixed default lies in its range', () => {
    for (const { spec } of all) {
      for (const [name, o] of Object.entries(spec.options)) {
        const where = `${spec.name} --${name}`;
        if (!o.required && o.type === 'string' && !o.multiple)
          expect(o.default !== undefined || o.defaultText !== undefined, where).toBe(true);
        if (o.limit && typeof o.default === 'string') {
          for (const n of (o.list ? o.default.split(',') : [o.default]).map(Number)) {
            expect(
              n >= o.limit.min && n <= o.limit.max && (!o.limit.integer || Number.isInteger(n)),
              `${where} default ${o.default}`,
            ).toBe(true);
          }
        }
      }
    }
  });

  it('a choice default is one of its choices', () => {
    for (const { spec } of all) {
      for (const [name, o] of Object.entries(spec.options)) {
        if (!o.choices || typeof o.default !== 'string') continue;
        const items = o.list ? (o.default === o.empty ? [] : o.default.split(',')) : [o.default];
        expect(
          items.every((item) => o.choices!.includes(item)),
          `${spec.name} --${name} default ${o.default}`,
        ).toBe(true);
      }
    }
  });

  it('every option that names presets takes exactly the presets and refuses another in the same words', async () => {
    const withPresets = all.flatMap(({ path, spec }) =>
      Object.entries(spec.options)
        .filter(([name]) => /preset/.test(name))
        .map(([name, o]) => ({ path, name, o })),
    );
    expect(withPresets.map(({ path, name }) => `${path.join(' ')} --${name}`).sort()).toEqual([
      'bench cpu --preset',
      'bench kernels --preset',
      'bench kernels --update-presets',
      'bench learn --preset',
      'bench onnx --presets',
      'bench soak --preset',
      'ckpt init --preset',
      'train --preset',
      'warmstart --preset',
    ]);
    for (const { path, name, o } of withPresets) {
      expect(o.choices, `${path.join(' ')} --${name}`).toEqual(PRESET_NAMES);
      const { code, stderr } = await cli([...path, `--${name}`, o.list ? 'micro,huge' : 'huge']);
      expect(code).toBe(2);
      expect(stderr.trim()).toBe(
        o.list
          ? `error: --${name} must be a comma-separated list of micro, tiny, small${o.empty ? `, or ${o.empty}` : ''}, got "micro,huge"`
          : `error: --${name} must be one of micro, tiny, small, got "huge"`,
      );
    }
  });

  it("every declared option is accepted by the command's parser", async () => {
    for (const { path, spec } of all) {
      for (const [name, o] of Object.entries(spec.options)) {
        // The parser stops at the first option it does not know: this one, or the unknown one after it.
        const { code, stderr } = await cli([
          ...path,
          `--${name}`,
          ...(o.type === 'string' ? ['1'] : []),
          '--zz-not-an-option',
        ]);
        expect(code, `${spec.name} --${name}`).toBe(2);
        expect(stderr, `${spec.name} --${name}`).toContain("Unknown option '--zz-not-an-option'");
      }
    }
  });
});

describe('the worlds with a score in the help of train and eval', () => {
  it('name every world with a score and what its score is, from the registry, and no world without one as one', async () => {
    const scored = ENVIRONMENT_NAMES.filter((name) => factsOf(name).scored);
    expect(scored.length).toBeGreaterThan(1);
    for (const command of ['train', 'eval']) {
      const help = flat((await cli([command, '--help'])).stdout);
      const inParentheses = /in a world with a score \(([^)]*)\)/i.exec(help)?.[1] ?? '';
      for (const name of ENVIRONMENT_NAMES) {
        expect(inParentheses.includes(theWorld(name)), `${command}: ${name}`).toBe(factsOf(name).scored);
        if (factsOf(name).scored) expect(help, `${command}: ${name}`).toContain(flat(factsOf(name).words.score!));
      }
    }
  });
});

describe('help of the groups and of the command line', () => {
  it('`npm run seed -- --help`, -h and help list every command with its summary', async () => {
    const { code, stdout, stderr } = await cli(['--help']);
    expect([code, stderr]).toEqual([0, '']);
    for (const [name, load] of Object.entries(commands)) {
      expect(stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
      expect(flat(stdout)).toContain(summaryOf(await load()));
    }
    expect(flat(stdout)).toContain('--threads N');
    expect((await cli(['-h'])).stdout).toBe(stdout);
    expect((await cli(['help'])).stdout).toBe(stdout);
  });

  it('bench and ckpt list their members; no command at all is a usage error on stderr', async () => {
    for (const group of ['bench', 'ckpt']) {
      const { code, stdout } = await cli([group, '--help']);
      expect(code).toBe(0);
      const members = all.filter((l) => l.path[0] === group);
      expect(members.length).toBeGreaterThan(1);
      for (const { path, spec } of members) {
        expect(stdout).toMatch(new RegExp(`^  ${path[1]} `, 'm'));
        expect(flat(stdout)).toContain(spec.summary);
      }
    }
    const bare = await cli([]);
    expect([bare.code, bare.stdout]).toEqual([2, '']);
    expect(bare.stderr).toMatch(/^usage: npm run seed -- /);
  });
});
