// Option parsing shared by the CLI commands: node's util.parseArgs, with its errors turned into CliErrors.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli_error.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseOptions<T extends Options>(args: string[], options: T, usage: string) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CliError(`${(err as Error).message}\nusage: ${usage}`, 2);
  }
}

export function requireOption(value: string | undefined, name: string, usage: string): string {
  if (value === undefined || value === '') throw new CliError(`missing --${name}\nusage: ${usage}`, 2);
  return value;
}

export function parseIntOption(value: string | undefined, name: string, fallback?: number): number {
  if (value === undefined) {
    if (fallback === undefined) throw new CliError(`missing --${name}`, 2);
    return fallback;
  }
  const n = Number(value);
  if (!Number.isInteger(n)) throw new CliError(`--${name} must be an integer, got "${value}"`, 2);
  return n;
}
