// What the kernel report says about its adapter: a software adapter's report is bench/kernels.md and says it
// is no hardware measurement; a GPU's goes beside it under the GPU's name.
import { describe, expect, it } from 'vitest';
import type { AdapterReport } from '../../../backend/webgpu/device.ts';
import { adapterLine, gradientPartsWords, reportName } from './report.ts';
import type { UpdateCost } from './update.ts';

const swiftshader: AdapterReport = {
  environment: 'node',
  vendor: 'google',
  architecture: 'swiftshader',
  device: 'swiftshader-device-subzero-',
  description: 'SwiftShader driver 5.0.0',
  isFallback: true,
};
const h200: AdapterReport = {
  environment: 'node',
  vendor: 'nvidia',
  architecture: 'hopper',
  device: '',
  description: 'NVIDIA H200',
  isFallback: false,
};

describe('kernel report naming', () => {
  it('keeps kernels.md for software adapters and names a GPU report after the GPU', () => {
    expect(reportName(swiftshader)).toBe('kernels.md');
    expect(
      reportName({ ...h200, description: 'llvmpipe (LLVM 15.0.6, 256 bits)', vendor: 'mesa', architecture: '' }),
    ).toBe('kernels.md');
    expect(reportName(h200)).toBe('kernels-nvidia-hopper.md');
    expect(reportName({ ...h200, vendor: 'amd', architecture: 'unknown', description: 'Radeon RX 7900 XTX' })).toBe(
      'kernels-amd-radeon-rx-7900-xtx.md',
    );
  });

  it('says whether the adapter is hardware', () => {
    expect(adapterLine(swiftshader)).toContain('not measured on hardware in this report');
    expect(adapterLine(h200)).toBe('Adapter: nvidia hopper (NVIDIA H200): a hardware GPU.');
  });
});

describe("the round-trip tables' line on the gradient's parts", () => {
  /** A counted update whose loss stage made these calls (the rest of the cost does not enter the line). */
  const cost = (algo: UpdateCost['algo'], lossCalls: Record<string, number>, gradShareEvery = 4) =>
    ({ algo, gradShareEvery, stages: [{ stage: 'loss', calls: lossCalls }] }) as unknown as UpdateCost;

  it('says whether each distilling arm counted an update that measured them, from the calls it made', () => {
    const grpo = cost('grpo', { lossBackward: 1 });
    expect(gradientPartsWords([grpo, cost('seed', { lossBackward: 1 })])).toBe(
      " A distilling run measures its gradient's parts at one update in 4 (gradShareEvery): seed's counted update is not.",
    );
    expect(gradientPartsWords([grpo, cost('seed', { lossBackward: 2, readGradients: 2, zeroGradients: 1 }, 1)])).toBe(
      " A distilling run measures its gradient's parts at every update (gradShareEvery): seed's counted update is one.",
    );
  });

  it('says nothing where no arm distils', () => {
    expect(gradientPartsWords([cost('grpo', { lossBackward: 1 })])).toBe('');
  });
});
