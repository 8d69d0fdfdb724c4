// Loading the recorded run the page shows on load: runs/index.json (relative to the page, which may be served
// from a sub-path), then the newest record it lists, each checked (src/rl/recorded_run_check.ts). Whatever
// goes wrong ends in a one-line message, and the page goes on with its live run alone.
import { messageOf } from '../common/errors.ts';
import type { RecordIndex, RecordedRun } from '../rl/recorded_run.ts';
import { checkRecordIndex, newestRecord, parseRecordedRun } from '../rl/recorded_run_check.ts';

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

export async function loadNewestRecord(get: Get = (url) => fetch(url), dir = RUNS_DIR): Promise<RecordedLoad> {
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
  const newest = newestRecord(index);
  if (!newest) return { state: 'none', message: `No recorded run: ${indexUrl} lists none.` };
  const url = `${dir}${newest.file}`;
  try {
    return { state: 'ready', run: parseRecordedRun(await textOf(get, url)), url };
  } catch (err) {
    return { state: 'failed', message: `The recorded run ${url} was not shown: ${messageOf(err)}.` };
  }
}
