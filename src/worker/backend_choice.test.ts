import { describe, expect, it } from 'vitest';
import type { AdapterReport } from '../backend/webgpu/device.ts';
import { decideBackend, isSoftwareAdapter } from './backend_choice.ts';

function adapter(over: Partial<AdapterReport>): AdapterReport {
  return {
    environment: 'browser',
    vendor: 'nvidia',
    architecture: 'ampere',
    device: '',
    description: 'NVIDIA GeForce RTX 3080',
    isFallback: false,
    ...over,
  };
}

describe('backend choice', () => {
  it('tells software adapters from hardware ones', () => {
    expect(isSoftwareAdapter(adapter({}))).toBe(false);
    expect(isSoftwareAdapter(adapter({ vendor: 'google', architecture: 'swiftshader', description: '' }))).toBe(true);
    expect(isSoftwareAdapter(adapter({ description: 'llvmpipe (LLVM 15.0.6, 256 bits)' }))).toBe(true);
    expect(isSoftwareAdapter(adapter({ isFallback: true }))).toBe(true);
  });

  it('auto: WebGPU on a hardware adapter, the CPU on a software one or without WebGPU', () => {
    expect(decideBackend('auto', { adapter: adapter({}) })).toMatchObject({ kind: 'webgpu', software: false });
    const soft = decideBackend('auto', { adapter: adapter({ architecture: 'swiftshader' }) });
    expect(soft).toMatchObject({ kind: 'cpu', fallback: null });
    expect(soft.reason).toContain('software');
    const none = decideBackend('auto', {
      unavailable: { detail: 'this browser exposes no navigator.gpu', fix: 'use Chrome 113+' },
    });
    expect(none).toEqual({
      kind: 'cpu',
      reason: 'WebGPU is unavailable here, so the CPU backend trains',
      fallback: { detail: 'this browser exposes no navigator.gpu', fix: 'use Chrome 113+' },
    });
  });

  it('honours an explicit request', () => {
    expect(decideBackend('cpu', { adapter: adapter({}) }).kind).toBe('cpu');
    expect(decideBackend('webgpu', { adapter: adapter({ isFallback: true }) })).toMatchObject({
      kind: 'webgpu',
      software: true,
    });
    expect(decideBackend('webgpu', { unavailable: { detail: 'd', fix: 'f' } })).toMatchObject({
      kind: 'cpu',
      fallback: { detail: 'd', fix: 'f' },
    });
  });
});
