// Serves the built site (dist/) under /seed/ for the whole e2e run and hands its URL to the specs.
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { serveStatic } from '../src/cli/browser/static_server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    siteUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const site = await serveStatic(fileURLToPath(new URL('../dist', import.meta.url)), '/seed/');
  project.provide('siteUrl', site.url);
  return () => site.close();
}
