// Every shader against the TypeScript that drives it: each shaders/<family>.wgsl has its wrapper
// src/backend/webgpu/<family>.ts, named in its header; each WGSL struct matches the wgslStruct its wrapper
// exports, field by field; no shader declares a name of the prelude, and a shader that uses one says so in
// its header; and every module compiles on Node's WebGPU with the prelude in front.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MASKED_LOG_PROB } from '../contract.ts';
import { moduleSource } from './prelude.ts';
import type { GpuRuntime } from './runtime.ts';
import { testRuntime } from './test_device.ts';
import { WgslStruct, type WgslScalar } from './wgsl_struct.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const shadersDir = join(root, 'shaders');
const families = readdirSync(shadersDir)
  .filter((f) => f.endsWith('.wgsl') && f !== 'prelude.wgsl')
  .map((f) => f.slice(0, -'.wgsl'.length))
  .sort();
const prelude = readFileSync(join(shadersDir, 'prelude.wgsl'), 'utf8');

function withoutComments(code: string): string {
  return code.replace(/\/\/.*$/gm, '');
}

/** The leading comment block of a shader. */
function header(code: string): string {
  const lines = code.split('\n');
  const end = lines.findIndex((line) => !line.startsWith('//'));
  return lines.slice(0, end).join('\n');
}

interface ParsedStruct {
  name: string;
  fields: { name: string; type: string }[];
}

function parseStructs(code: string): ParsedStruct[] {
  return [...withoutComments(code).matchAll(/struct\s+(\w+)\s*\{([^}]*)\}/g)].map(([, name, body]) => ({
    name,
    fields: body
      .split(',')
      .map((f) => f.trim())
      .filter((f) => f.length > 0)
      .map((f) => {
        const [field, type] = f.split(':').map((s) => s.trim());
        return { name: field, type };
      }),
  }));
}

/** Differences between a WGSL struct and its declaration; empty when they match. */
function structMismatches(wgsl: ParsedStruct, decl: WgslStruct<string>): string[] {
  const out: string[] = [];
  const declared = decl.fields.map((f) => `${f.name}: ${f.type}`);
  const own = wgsl.fields.filter((f) => !f.name.startsWith('_pad'));
  const got = own.map((f) => `${f.name}: ${f.type}`);
  if (got.join(', ') !== declared.join(', ')) out.push(`fields ${got.join(', ')} != declared ${declared.join(', ')}`);
  const firstPad = wgsl.fields.findIndex((f) => f.name.startsWith('_pad'));
  if (firstPad >= 0 && firstPad < own.length) out.push('padding before a field');
  if (wgsl.fields.length !== decl.words)
    out.push(`${wgsl.fields.length} words, declared ${decl.words} (padded to 16 bytes)`);
  if (!wgsl.fields.every((f) => ['u32', 'i32', 'f32'].includes(f.type as WgslScalar)))
    out.push('a field that is not a 32-bit scalar');
  return out;
}

/** Names declared at module scope (fn, const, override, var, struct). */
function declaredNames(code: string): string[] {
  return [...withoutComments(code).matchAll(/^(?:fn|const|override|struct|var(?:<[^>]*>)?)\s+(\w+)/gm)].map(
    (m) => m[1],
  );
}

describe('the WGSL struct parser', () => {
  it('reads fields in order and tells a matching declaration from a drifted one', () => {
    const [parsed] = parseStructs(
      '// c\nstruct Shape {\n  n: u32, // rows\n  eps: f32,\n  _pad0: u32,\n  _pad1: u32,\n}',
    );
    expect(parsed).toEqual({
      name: 'Shape',
      fields: [
        { name: 'n', type: 'u32' },
        { name: 'eps', type: 'f32' },
        { name: '_pad0', type: 'u32' },
        { name: '_pad1', type: 'u32' },
      ],
    });
    expect(structMismatches(parsed, new WgslStruct('Shape', { n: 'u32', eps: 'f32' }))).toEqual([]);
    expect(structMismatches(parsed, new WgslStruct('Shape', { n: 'u32', eps: 'u32' }))).toHaveLength(1);
    expect(structMismatches(parsed, new WgslStruct('Shape', { eps: 'f32', n: 'u32' }))).toHaveLength(1);
    expect(
      structMismatches(parsed, new WgslStruct('Shape', { n: 'u32', eps: 'f32', k: 'u32', j: 'u32', i: 'u32' })),
    ).toHaveLength(2);
    const [unpadded] = parseStructs('struct S { a: u32, b: u32 }');
    expect(structMismatches(unpadded, new WgslStruct('S', { a: 'u32', b: 'u32' }))).toEqual([
      '2 words, declared 4 (padded to 16 bytes)',
    ]);
  });
});

describe.each(families)('shaders/%s.wgsl', (family) => {
  const code = readFileSync(join(shadersDir, `${family}.wgsl`), 'utf8');
  const wrapper = join(root, 'src', 'backend', 'webgpu', `${family}.ts`);

  it('has its wrapper, which loads it, named in its header with bindings and dispatch', () => {
    expect(existsSync(wrapper), `src/backend/webgpu/${family}.ts`).toBe(true);
    expect(readFileSync(wrapper, 'utf8')).toContain(`shaders/${family}.wgsl?raw`);
    const head = header(code);
    expect(head).toContain(`src/backend/webgpu/${family}.ts`);
    expect(head).toMatch(/@binding\(0\)/);
    expect(head).toMatch(/dispatch|thread/);
  });

  it('declares each struct once, in its wrapper, field by field', async () => {
    const module = (await import(/* @vite-ignore */ `./${family}.ts`)) as Record<string, unknown>;
    const declared = Object.values(module).filter((v): v is WgslStruct<string> => v instanceof WgslStruct);
    const structs = parseStructs(code);
    expect(structs.length).toBeGreaterThan(0);
    expect(declared.map((d) => d.name).sort()).toEqual(structs.map((s) => s.name).sort());
    for (const s of structs) expect(structMismatches(s, declared.find((d) => d.name === s.name)!), s.name).toEqual([]);
  });

  it('leaves the prelude its names, and says in its header which it uses', () => {
    const preludeNames = declaredNames(prelude);
    expect(declaredNames(code).filter((n) => preludeNames.includes(n))).toEqual([]);
    const used = preludeNames.filter((n) => new RegExp(`\\b${n}\\b`).test(withoutComments(code)));
    if (used.length > 0) expect(header(code)).toContain('shaders/prelude.wgsl');
  });
});

describe('the prelude', () => {
  let gpu: GpuRuntime;
  beforeAll(async () => {
    gpu = await testRuntime();
  });

  it('declares WG without a default, and MASKED_LOG_PROB as src/backend/contract.ts does', () => {
    expect(withoutComments(prelude)).toMatch(/override WG: u32;/);
    const masked = /const MASKED_LOG_PROB: f32 = ([^;]+);/.exec(prelude);
    expect(Number(masked?.[1])).toBe(MASKED_LOG_PROB);
  });

  it.each(families)('compiles in front of %s.wgsl', async (family) => {
    const module = gpu.device.createShaderModule({
      code: moduleSource(readFileSync(join(shadersDir, `${family}.wgsl`), 'utf8')),
    });
    const info = await module.getCompilationInfo();
    expect(info.messages.filter((m) => m.type === 'error').map((m) => m.message)).toEqual([]);
  });
});
