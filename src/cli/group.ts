// A group of commands under one name (bench, ckpt): `<group> <member> [options]` runs the member,
// `<group> --help` lists the members with their summaries, `<group> help <member>` shows the member's help.
import { quote } from '../common/json.ts';
import { usageError } from './args.ts';
import { CliError } from './cli_error.ts';
import { HelpRequest, listHelp, sentence, summaryOf, type GroupSpec } from './help.ts';

function groupUsage(group: GroupSpec): string {
  return `npm run seed -- ${group.name} <${Object.keys(group.members).join('|')}> [options]`;
}

/** The group's help: its usage, description and every member with its summary. */
async function groupHelp(group: GroupSpec): Promise<string> {
  const entries = await Promise.all(
    Object.entries(group.members).map(
      async ([name, load]) => [name, await load().then(summaryOf, () => '(not available in this build)')] as const,
    ),
  );
  const footer = `Run "npm run seed -- ${group.name} <${group.noun.split(' ').at(-1)}> --help" for the options of one.`;
  return listHelp(
    groupUsage(group),
    `${sentence(group.summary)}\n\n${group.description}`,
    `${group.noun}s`,
    entries,
    footer,
  );
}

export async function runGroup(group: GroupSpec, args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === 'help' && rest.length > 0) return runGroup(group, [rest[0], '--help']);
  if (name === '--help' || name === '-h' || name === 'help') throw new HelpRequest(await groupHelp(group));
  const load = name !== undefined && Object.hasOwn(group.members, name) ? group.members[name] : undefined;
  if (!load)
    throw usageError(
      name === undefined ? `missing ${group.noun}` : `unknown ${group.noun} ${quote(name)}`,
      groupUsage(group),
    );
  const member = await load().catch(() => {
    throw new CliError(`${group.noun} ${quote(name)} is not available in this build`);
  });
  return member.run(rest);
}
