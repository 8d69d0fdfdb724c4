// Lets Node (the CLI under tsx) import files with Vite's `?raw` suffix, so WGSL shaders are loaded as
// strings by the same import statements in the browser bundle, in vitest and in the CLI.
import { register } from 'node:module';

register('./raw-loader-hooks.mjs', import.meta.url);
