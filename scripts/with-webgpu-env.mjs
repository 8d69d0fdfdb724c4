#!/usr/bin/env node
// Runs a command with what Node's WebGPU (the `webgpu` package, Dawn) needs to find a Vulkan driver:
// the SwiftShader ICD that Debian's chromium package ships. LD_LIBRARY_PATH must be set before the
// process starts, so this wraps the command instead of setting it from inside the test.
// A machine with a Vulkan driver of its own (a GPU's ICD manifest in the loader's standard folders) keeps
// it: SwiftShader is then only added beside it, and Dawn's high-performance adapter is the GPU. Drivers
// chosen by the caller (VK_DRIVER_FILES, VK_ICD_FILENAMES) are left alone.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const icd = '/usr/lib/chromium/vk_swiftshader_icd.json';
const env = { ...process.env };

/** ICD manifests of hardware drivers (lavapipe and SwiftShader are software) in the Vulkan loader's folders. */
function systemGpuDrivers() {
  const roots = ['/etc', '/usr/local/share', '/usr/share', join(homedir(), '.local/share')];
  return roots.flatMap((root) => {
    const dir = join(root, 'vulkan/icd.d');
    if (!existsSync(dir)) return [];
    return readdirSync(dir).filter((name) => name.endsWith('.json') && !/lvp|lavapipe|swiftshader/i.test(name));
  });
}

if (!env.VK_DRIVER_FILES && !env.VK_ICD_FILENAMES && existsSync(icd)) {
  if (systemGpuDrivers().length > 0) env.VK_ADD_DRIVER_FILES = [icd, env.VK_ADD_DRIVER_FILES].filter(Boolean).join(':');
  else env.VK_DRIVER_FILES = icd;
  env.LD_LIBRARY_PATH = ['/usr/lib/chromium', env.LD_LIBRARY_PATH].filter(Boolean).join(':');
}
const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error('usage: with-webgpu-env.mjs COMMAND [ARGS...]');
  process.exit(2);
}
const bin = existsSync(`node_modules/.bin/${cmd}`) ? `node_modules/.bin/${cmd}` : cmd;
const result = spawnSync(bin, args, { stdio: 'inherit', env });
if (result.error) {
  console.error(`could not run ${cmd}: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
