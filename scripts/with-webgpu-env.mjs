#!/usr/bin/env node
// Runs a command with what Node's WebGPU (the `webgpu` package, Dawn) needs to find a Vulkan driver:
// the SwiftShader ICD that Debian's chromium package ships. LD_LIBRARY_PATH must be set before the
// process starts, so this wraps the command instead of setting it from inside the test.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const icd = '/usr/lib/chromium/vk_swiftshader_icd.json';
const env = { ...process.env };
if (!env.VK_DRIVER_FILES && existsSync(icd)) {
  env.VK_DRIVER_FILES = icd;
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
