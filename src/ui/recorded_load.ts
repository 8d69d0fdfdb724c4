// Loading the recorded run the page shows for a world: runs/index.json (relative to the page, which may be served
// from a sub-path), then the newest record it lists of that world (a line that names no world is the default
// world's), each checked (src/rl/recorded_run_check.ts). Whatever goes wrong, or a world with no record, ends in a
// one-line message, and the page goes on with its live run alone.
import { messageOf } from '../common/errors.ts';
import type { RecordIndex, RecordedRun } from '../rl/recorded_run.ts';
import { checkRecordIndex, newestRecord, parseRecordedRun, recordWorld } from '../rl/recorded_run_check.ts';
import { theWorld } from '../worlds/facts.ts';
import type { EnvironmentName } from '../worlds/names.ts';

export type RecordedLoad =
  | { state: 'loading' }
  | { state: 'none'; message: string }
  | { state: 'failed'; message: string }
  | { state: 'ready'; run: RecordedRun; url: string };

/** Beside index.html in the built site: public/runs/ of the repository. */
const RUNS_DIR = 'runs/';

type Get = (url: string) => Promise<Pick<Response, 'ok' | 'status' | 'text'>>;

async function textOf(get: Get, url: string): Promise<string> {
  const res = await get(url);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.text();
}

/** The newest record of `world` that the index lists, or one line saying why none is shown. */
export async function loadNewestRecord(
  world: EnvironmentName,
  get: Get = (url) => fetch(url),
  dir = RUNS_DIR,
): Promise<RecordedLoad> {
  const indexUrl = `${dir}index.json`;
  let index: RecordIndex;
  try {
    const text = await textOf(get, indexUrl);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error('it is not JSON');
    }
    index = checkRecordIndex(json);
  } catch (err) {
    return { state: 'failed', message: `No recorded run: ${indexUrl} was not read (${messageOf(err)}).` };
  }
  const newest = newestRecord(index, world);
  if (!newest) return { state: 'none', message: `No recorded run of ${theWorld(world)}: ${indexUrl} lists none.` };
  const url = `${dir}${newest.file}`;
  let run: RecordedRun;
  try {
    run = parseRecordedRun(await textOf(get, url));
  } catch (err) {
    return { state: 'failed', message: `The recorded run ${url} was not shown: ${messageOf(err)}.` };
  }
  const played = recordWorld(run);
  if (played !== world)
    return {
      state: 'failed',
      message: `The recorded run ${url} was not shown: it played ${theWorld(played)}, but ${indexUrl} lists it as ${theWorld(world)}'s.`,
    };
  return { state: 'ready', run, url };
}
