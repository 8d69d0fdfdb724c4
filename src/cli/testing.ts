// For the CLI's tests: runs a command's `run(args)` in-process with stdout and stderr captured (and kept off
// the test output), restoring both streams however the command ends.
import { vi } from 'vitest';

export interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCaptured(run: (args: string[]) => Promise<number>, args: string[]): Promise<Captured> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { code: await run(args), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
