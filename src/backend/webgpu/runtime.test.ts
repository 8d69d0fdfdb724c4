// The runtime's contracts: typed errors with fixes, limits, buffer pool, pipeline cache, one submit per
// stage, ordered reads through the staging ring, stage errors and device loss.
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { maskWords } from '../backend.ts';
import { BufferPool } from './buffer_pool.ts';
import { acquireDevice, browserGpu, chooseLimits, formatAdapter } from './device.ts';
import { DeviceLostError, GpuStageError, WebGpuUnavailableError } from './errors.ts';
import { workgroupGrid, type KernelSpec } from './kernel.ts';
import { gatherLogProbs, maskedLogSoftmax } from './log_softmax.ts';
import { createNodeRuntime } from './node_gpu.ts';
import type { GpuRuntime } from './runtime.ts';
import { testRuntime } from './test_device.ts';

const COPY_KERNEL: KernelSpec = {
  entryPoint: 'scale_copy',
  code: /* wgsl */ `
    struct Params { n: u32, factor: f32 }
    override OFFSET: f32 = 0.0;
    @group(0) @binding(0) var<uniform> params: Params;
    @group(0) @binding(1) var<storage, read> src: array<f32>;
    @group(0) @binding(2) var<storage, read_write> dst: array<f32>;
    @compute @workgroup_size(64)
    fn scale_copy(@builtin(global_invocation_id) id: vec3u) {
      if (id.x < params.n) { dst[id.x] = src[id.x] * params.factor + OFFSET; }
    }`,
  bindings: ['uniform', 'read', 'write'],
};

function params(n: number, factor: number): Uint32Array {
  const words = new Uint32Array(2);
  words[0] = n;
  new Float32Array(words.buffer)[1] = factor;
  return words;
}

function fakeGpu(requestAdapter: () => Promise<GPUAdapter | null>): GPU {
  return { requestAdapter } as unknown as GPU;
}

function fakeAdapter(limits: Partial<Record<string, number>>, requestDevice?: () => Promise<GPUDevice>): GPUAdapter {
  const full = {
    maxComputeInvocationsPerWorkgroup: 256,
    maxComputeWorkgroupSizeX: 256,
    maxStorageBuffersPerShaderStage: 8,
    maxComputeWorkgroupStorageSize: 16384,
    maxComputeWorkgroupsPerDimension: 65535,
    maxStorageBufferBindingSize: 134217728,
    maxBufferSize: 268435456,
    ...limits,
  };
  return {
    limits: full,
    features: new Set<string>(),
    info: { vendor: 'acme', architecture: 'rdna9', device: '', description: 'Acme GPU', isFallbackAdapter: false },
    requestDevice: requestDevice ?? (() => Promise.reject(new Error('not reached'))),
  } as unknown as GPUAdapter;
}

describe('typed errors', () => {
  it('says how to enable WebGPU when the browser has no navigator.gpu', () => {
    let caught: unknown;
    try {
      browserGpu({});
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(WebGpuUnavailableError);
    const err = caught as WebGpuUnavailableError;
    expect(err.reason).toBe('no-webgpu');
    expect(err.environment).toBe('browser');
    expect(err.fix).toMatch(/--enable-unsafe-webgpu/);
    expect(err.message).toMatch(/navigator\.gpu/);
  });

  it('names the Vulkan driver variables when Node finds no adapter', async () => {
    const promise = acquireDevice(
      fakeGpu(async () => null),
      { environment: 'node' },
    );
    await expect(promise).rejects.toBeInstanceOf(WebGpuUnavailableError);
    await expect(promise).rejects.toMatchObject({
      reason: 'no-adapter',
      fix: expect.stringContaining('VK_DRIVER_FILES=/usr/lib/chromium/vk_swiftshader_icd.json'),
    });
    await expect(
      acquireDevice(
        fakeGpu(async () => null),
        { environment: 'node' },
      ),
    ).rejects.toThrow(/LD_LIBRARY_PATH=\/usr\/lib\/chromium/);
  });

  it('turns a throwing requestAdapter and a failing requestDevice into typed errors', async () => {
    const throwing = fakeGpu(() => Promise.reject(new Error('blocked by policy')));
    await expect(acquireDevice(throwing, { environment: 'browser' })).rejects.toMatchObject({
      reason: 'no-adapter',
      message: expect.stringContaining('blocked by policy'),
    });
    const failing = fakeGpu(async () => fakeAdapter({}, () => Promise.reject(new Error('out of memory'))));
    await expect(acquireDevice(failing, { environment: 'browser' })).rejects.toMatchObject({
      reason: 'device-request-failed',
      message: expect.stringContaining('out of memory'),
    });
  });

  it('refuses an adapter short of a required limit, naming it', async () => {
    const weak = fakeGpu(async () => fakeAdapter({ maxStorageBuffersPerShaderStage: 4 }));
    await expect(acquireDevice(weak, { environment: 'browser' })).rejects.toMatchObject({
      reason: 'insufficient-limits',
      message: expect.stringContaining('maxStorageBuffersPerShaderStage 4 < 8'),
    });
    const small = fakeGpu(async () => fakeAdapter({}));
    await expect(
      acquireDevice(small, { environment: 'browser', required: { maxStorageBufferBindingSize: 1 << 30 } }),
    ).rejects.toThrow(/maxStorageBufferBindingSize 134217728 < 1073741824/);
  });

  it('asks for the required limits and raises the wanted ones to what the adapter has', () => {
    const limits = chooseLimits(fakeAdapter({}).limits, {}, 'browser');
    expect(limits.maxComputeInvocationsPerWorkgroup).toBe(256);
    expect(limits.maxStorageBufferBindingSize).toBe(134217728);
    expect(limits.maxBufferSize).toBe(268435456);
    expect(limits.maxStorageBuffersPerShaderStage).toBe(8);
    const big = chooseLimits(
      fakeAdapter({ maxStorageBuffersPerShaderStage: 16, maxBufferSize: 2 ** 34 }).limits,
      {},
      'browser',
    );
    expect(big.maxStorageBuffersPerShaderStage).toBe(10);
    expect(big.maxBufferSize).toBe(1 << 30);
  });

  it('fails loudly, naming the fix, in a Node process without the Vulkan driver', () => {
    // The Vulkan loader reads only the listed driver manifests: a missing one means no driver at all,
    // on this machine and on one with a real GPU alike.
    const env: NodeJS.ProcessEnv = { ...process.env, VK_DRIVER_FILES: '/nonexistent/vk_icd.json' };
    delete env.VK_ICD_FILENAMES;
    const script =
      "import('./src/backend/webgpu/node_gpu.ts').then((m) => m.createNodeRuntime())" +
      ".then(() => console.log('GOT A DEVICE'), (e) => { console.log(e.name + ': ' + e.message); process.exitCode = 3; });";
    // The runtime builds shader modules with the WGSL prelude, a `?raw` import (what the CLI loads too).
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--import', './scripts/register-raw.mjs', '-e', script],
      { env, encoding: 'utf8', timeout: 60_000 },
    );
    expect(result.stdout).toMatch(/WebGpuUnavailableError: WebGPU unavailable \(no-adapter\)/);
    expect(result.stdout).toContain('VK_DRIVER_FILES=/usr/lib/chromium/vk_swiftshader_icd.json');
    expect(result.status).toBe(3);
  });
});

describe('runtime on Node WebGPU', () => {
  let gpu: GpuRuntime;
  beforeAll(async () => {
    gpu = await testRuntime();
  });

  it('reports the adapter', () => {
    expect(gpu.adapter.environment).toBe('node');
    expect(gpu.adapter.vendor.length).toBeGreaterThan(0);
    expect(gpu.adapter.architecture.length).toBeGreaterThan(0);
    expect(typeof gpu.adapter.isFallback).toBe('boolean');
    expect(formatAdapter(gpu.adapter)).toContain(gpu.adapter.vendor);
    expect(gpu.device.limits.maxStorageBuffersPerShaderStage).toBeGreaterThanOrEqual(8);
    // SwiftShader offers timestamp queries; the runtime asks for them when present.
    expect(gpu.device.features.has('timestamp-query')).toBe(true);
  });

  it('recycles buffers by size bucket and usage and counts live ones', () => {
    const pool = new BufferPool(gpu.device);
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    const a = pool.acquire(1000, usage);
    expect(a.size).toBe(1024);
    expect(pool.stats()).toMatchObject({ live: 1, inUse: 1, free: 0, bytes: 1024 });
    pool.release(a);
    expect(pool.acquire(1024, usage)).toBe(a);
    const other = pool.acquire(1000, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
    expect(other).not.toBe(a);
    expect(pool.stats()).toMatchObject({ live: 2, inUse: 2 });
    pool.release(a);
    expect(() => pool.release(a)).toThrow(/released twice/);
    pool.trim();
    expect(pool.stats()).toMatchObject({ live: 1, inUse: 1, free: 0, bytes: 1024 });
    pool.destroy();
    expect(pool.stats().live).toBe(0);
  });

  it('compiles a pipeline once per shader, entry point and constants', () => {
    const before = gpu.pipelines.size;
    const first = gpu.pipelines.get(COPY_KERNEL);
    expect(gpu.pipelines.get({ ...COPY_KERNEL })).toBe(first);
    const shifted = gpu.pipelines.get({ ...COPY_KERNEL, constants: { OFFSET: 1 } });
    expect(shifted).not.toBe(first);
    expect(gpu.pipelines.get({ ...COPY_KERNEL, constants: { OFFSET: 1 } })).toBe(shifted);
    expect(gpu.pipelines.size).toBe(before + 2);
  });

  it('submits a whole stage once, with each dispatch seeing its own uniforms and reads in order', async () => {
    const n = 100;
    const a = gpu.upload(Float32Array.from({ length: n }, (_, i) => i));
    const b = gpu.buffer(n * 4);
    const queue = gpu.device.queue;
    const submit = queue.submit;
    let submits = 0;
    const before = gpu.stats();
    queue.submit = (buffers: Iterable<GPUCommandBuffer>) => {
      submits++;
      submit.call(queue, buffers);
    };
    try {
      const stage = gpu.stage('chain');
      stage.dispatch(COPY_KERNEL, [params(n, 2), a, b], workgroupGrid(Math.ceil(n / 64)));
      const afterFirst = stage.read(b, n * 4);
      stage.dispatch(COPY_KERNEL, [params(n, 3), b, a], workgroupGrid(Math.ceil(n / 64)));
      stage.dispatch({ ...COPY_KERNEL, constants: { OFFSET: 0.5 } }, [params(n, -1), a, b], workgroupGrid(2));
      const afterThird = stage.read({ buffer: b, offset: 256 }, 8);
      await stage.submit();
      expect(submits).toBe(1);
      const after = gpu.stats();
      expect(after.submits - before.submits).toBe(1);
      expect(after.bytesRead - before.bytesRead).toBe(n * 4 + 8);
      const first = new Float32Array(await afterFirst);
      expect(first[7]).toBe(14);
      // b[64..65] after b = -(6 i) + 0.5 (a = 3 * 2 i).
      expect(Array.from(new Float32Array(await afterThird))).toEqual([-6 * 64 + 0.5, -6 * 65 + 0.5]);
    } finally {
      queue.submit = submit;
      gpu.release(a, b);
    }
  });

  it('keeps the uniform values of a dispatch as they were when it was recorded', async () => {
    const a = gpu.upload(Float32Array.of(1, 2, 3, 4));
    const b = gpu.buffer(16);
    const shape = params(4, 10);
    const stage = gpu.stage('uniform copy');
    stage.dispatch(COPY_KERNEL, [shape, a, b], [1, 1, 1]);
    new Float32Array(shape.buffer)[1] = -1;
    const data = stage.read(b, 16);
    await stage.submit();
    expect(Array.from(new Float32Array(await data))).toEqual([10, 20, 30, 40]);
    gpu.release(a, b);
  });

  it('clears a slice and counts the bytes written', async () => {
    const before = gpu.stats().bytesWritten;
    const buffer = gpu.upload(new Float32Array(128).fill(7));
    expect(gpu.stats().bytesWritten - before).toBe(512);
    const stage = gpu.stage('clear');
    stage.clear({ buffer, offset: 256, size: 128 });
    const data = stage.read(buffer, 512);
    await stage.submit();
    const values = new Float32Array(await data);
    expect([values[63], values[64], values[95], values[96]]).toEqual([7, 0, 0, 7]);
    gpu.release(buffer);
  });

  it('times each dispatch of a timed stage on the GPU', async () => {
    const n = 4096;
    const a = gpu.upload(new Float32Array(n).fill(1));
    const b = gpu.buffer(n * 4);
    const stage = gpu.stage('timed', { timing: true });
    stage.dispatch(COPY_KERNEL, [params(n, 2), a, b], [n / 64, 1, 1]);
    stage.dispatch({ ...COPY_KERNEL, constants: { OFFSET: 1 } }, [params(n, 3), b, a], [n / 64, 1, 1]);
    const data = stage.read(a, 16);
    const start = performance.now();
    await stage.submit();
    const wallNs = (performance.now() - start) * 1e6;
    const timings = await stage.timings();
    expect(timings.map((t) => t.entryPoint)).toEqual(['scale_copy', 'scale_copy']);
    // Nanoseconds, not another unit: each dispatch took less than the submit that waited for it. A slower or
    // busier machine only lengthens the wait, so this bound cannot fail for want of speed.
    for (const t of timings) {
      expect(t.ns).toBeGreaterThan(0);
      expect(t.ns).toBeLessThan(wallNs);
    }
    expect(Array.from(new Float32Array(await data))).toEqual([7, 7, 7, 7]);
    expect(() => gpu.stage('untimed').timings()).toThrow(/not created with \{ timing: true \}/);
    gpu.release(a, b);
  });

  it('reuses one staging buffer across awaited stages and grows the ring for overlapping ones', async () => {
    const buffer = gpu.upload(Float32Array.of(1, 2, 3, 4));
    try {
      for (let i = 0; i < 5; i++) {
        const stage = gpu.stage('read');
        const data = stage.read(buffer, 16);
        await stage.submit();
        expect(Array.from(new Float32Array(await data))).toEqual([1, 2, 3, 4]);
      }
      const held = gpu.stats().stagingBuffers;
      const stages = [0, 1, 2].map(() => gpu.stage('overlap'));
      const reads = stages.map((s) => s.read(buffer, 16));
      await Promise.all(stages.map((s) => s.submit()));
      for (const r of reads) expect(Array.from(new Float32Array(await r))).toEqual([1, 2, 3, 4]);
      expect(gpu.stats().stagingBuffers).toBe(Math.max(held, 3));
    } finally {
      gpu.release(buffer);
    }
  });

  it('batches many log-softmax dispatches of different shapes into one stage', async () => {
    const shapes: [number, number][] = [
      [2, 3],
      [1, 40],
      [3, 5],
    ];
    const stage = gpu.stage('many');
    const held: GPUBuffer[] = [];
    const reads = shapes.map(([rows, vocab]) => {
      const logits = gpu.upload(Float32Array.from({ length: rows * vocab }, (_, i) => i % vocab));
      const masks = gpu.upload(new Uint32Array(rows * maskWords(vocab)).fill(0xffffffff));
      const targets = gpu.upload(new Int32Array(rows).fill(vocab - 1));
      const out = gpu.buffer(rows * vocab * 4);
      const gathered = gpu.buffer(rows * 4);
      held.push(logits, masks, targets, out, gathered);
      maskedLogSoftmax(stage, out, logits, masks, rows, vocab);
      gatherLogProbs(stage, gathered, out, targets, rows, vocab);
      return stage.read(gathered, rows * 4);
    });
    await stage.submit();
    for (let i = 0; i < shapes.length; i++) {
      const vocab = shapes[i][1];
      // Logits 0..V-1: log p(V-1) = -ln(sum_k e^-k) = -ln((1 - e^-V) / (1 - e^-1)).
      const want = -Math.log((1 - Math.exp(-vocab)) / (1 - Math.exp(-1)));
      for (const x of new Float32Array(await reads[i])) expect(x).toBeCloseTo(want, 5);
    }
    gpu.release(...held);
  });

  it('rejects a stage and its reads with the GPU validation message', async () => {
    const readable = gpu.device.createBuffer({ size: 256, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const src = gpu.upload(new Float32Array(64));
    const stage = gpu.stage('broken');
    stage.dispatch(COPY_KERNEL, [params(64, 1), src, readable], [1, 1, 1]);
    const read = stage.read(src, 16);
    await expect(stage.submit()).rejects.toBeInstanceOf(GpuStageError);
    await expect(read).rejects.toThrow(/WebGPU error in stage "broken"/);
    readable.destroy();
    gpu.release(src);
    // The runtime keeps working after a failed stage.
    const ok = gpu.stage('after');
    const buffer = gpu.upload(Float32Array.of(5));
    const data = ok.read(buffer, 4);
    await ok.submit();
    expect(new Float32Array(await data)[0]).toBe(5);
    gpu.release(buffer);
  });

  it('refuses to record into a submitted stage and checks resources against bindings', async () => {
    const stage = gpu.stage('once');
    await stage.submit();
    expect(() => stage.read(gpu.device.createBuffer({ size: 4, usage: GPUBufferUsage.COPY_SRC }), 4)).toThrow(
      /already submitted/,
    );
    const buffer = gpu.buffer(16);
    expect(() => gpu.stage('x').dispatch(COPY_KERNEL, [buffer, buffer], [1, 1, 1])).toThrow(/2 resources for 3/);
    expect(() => gpu.stage('x').dispatch(COPY_KERNEL, [buffer, buffer, buffer], [1, 1, 1])).toThrow(
      /binding 0 is uniform/,
    );
    gpu.release(buffer);
  });
});

describe('device loss', () => {
  it('surfaces the loss to listeners, the lost promise, pending reads and later stages', async () => {
    const gpu = await createNodeRuntime();
    const heard: string[] = [];
    gpu.onLost((info) => heard.push(info.reason));
    const buffer = gpu.upload(new Float32Array(1024));
    const stage = gpu.stage('in flight');
    const read = stage.read(buffer, 4096);
    const submitted = stage.submit();
    gpu.dispose();
    await expect(submitted).rejects.toBeInstanceOf(DeviceLostError);
    await expect(read).rejects.toBeInstanceOf(DeviceLostError);
    const info = await gpu.lost;
    expect(info.reason).toBe('destroyed');
    expect(heard).toEqual(['destroyed']);
    const late: string[] = [];
    gpu.onLost((i) => late.push(i.reason));
    expect(late).toEqual(['destroyed']);
    await expect(gpu.stage('after loss').submit()).rejects.toThrow(/device lost \(destroyed\)/);
  });
});
