// The recorded runs a spec shows: the shipped ones (public/runs/, which vite copies into dist/), or an index of its
// own served in their place, so that what a world has does not depend on the records shipped today: the
// household's lines alone (the shop has none), or every world's with a shop fixture in place of the shop's own. The
// fixture is made from the household's newest, named the shop's, with a paired difference of its own so that the
// page is seen to show it and not the household's, and with teacher checks of its own over updates for its arms
// but GRPO (which keeps none).
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import type { RecordIndex, RecordedRun, RecordedTeacherCheck } from '../src/rl/recorded_run.ts';
import { checkRecordIndex, newestRecord, parseRecordedRun, recordWorld } from '../src/rl/recorded_run_check.ts';
import type { EnvironmentName } from '../src/worlds/names.ts';
import { newContext, openTab, type OpenedPage } from './page.ts';

function shippedIndex(): RecordIndex {
  return checkRecordIndex(JSON.parse(readFileSync('public/runs/index.json', 'utf8')));
}

/** The record the built site shows in `world`: the newest of that world that public/runs/index.json lists. */
export function shippedRecord(world: EnvironmentName = 'household'): { file: string; run: RecordedRun } {
  const entry = newestRecord(shippedIndex(), world);
  if (!entry) throw new Error(`public/runs/index.json lists no record of the ${world}`);
  return { file: entry.file, run: parseRecordedRun(readFileSync(`public/runs/${entry.file}`, 'utf8')) };
}

/** The shipped index's lines of the household alone. */
export function householdIndex(): RecordIndex {
  const index = shippedIndex();
  return { ...index, runs: index.runs.filter((r) => recordWorld(r) === 'household') };
}

const SHOP_FILE = 'e2e-shop-record.json';

/** Its main distilling arm against GRPO on eval-unseen: +6.25 points [+1.25, +11.25], no shipped record's. */
const SHOP_DIFFERENCE = { value: 0.0625, ci: [0.0125, 0.1125] as [number, number] };

/**
 * The teacher checks of the fixture's `k`-th arm after the first, half-way and last update: a block effect that
 * shrinks and a content effect that grows, different for each arm.
 */
function teacherChecks(updates: number, k: number): RecordedTeacherCheck[] {
  return [0, Math.round(updates / 2), updates].map((update, i) => {
    const block = 0.1 - 0.05 * i;
    const content = 0.05 * (i + 1) + 0.025 * k;
    const none = 0.25;
    return {
      update,
      seeds: 2,
      none,
      own: none + block + content,
      other: none + block,
      blank: none + 0.0625 * i,
      block: { value: block, ci: [block - 0.05, block + 0.05] },
      content: { value: content, ci: [content - 0.05, content + 0.05] },
    };
  });
}

/** A shop record: the household's newest, named the shop's, created after it, with SHOP_DIFFERENCE and teacher checks. */
export function shopRecord(): { file: string; run: RecordedRun } {
  const { run } = shippedRecord('household');
  const arm = run.arms.find((a) => a.role === 'main' && a.algo !== 'grpo')!.algo;
  return {
    file: SHOP_FILE,
    run: {
      ...run,
      env: 'shop',
      command: `npm run seed -- bench learn --env shop --record public/runs/${SHOP_FILE}`,
      created: new Date(Date.parse(run.created) + 1000).toISOString(),
      differences: run.differences.map((d) => (d.a === arm && d.b === 'grpo' ? { ...d, unseen: SHOP_DIFFERENCE } : d)),
      arms: run.arms.map((a, k) => ({ ...a, teacher: a.algo === 'grpo' ? undefined : teacherChecks(run.updates, k) })),
    },
  };
}

/** The shipped index with the shop fixture's line in place of any shipped shop record's (its one shop line). */
export function indexWithShop(): RecordIndex {
  const index = shippedIndex();
  const { file, run } = shopRecord();
  return {
    ...index,
    runs: [
      ...index.runs.filter((r) => recordWorld(r) !== 'shop'),
      { file, env: 'shop', created: run.created, command: run.command, commit: run.commit },
    ],
  };
}

/**
 * The playground at `hash` with runs/index.json answered by `index` and the shop record served beside the shipped
 * ones (service workers blocked, so that the routes see the page's requests).
 */
export async function openWithIndex(
  browser: Browser,
  hash: string,
  index: RecordIndex,
  viewport = { width: 1400, height: 1000 },
): Promise<OpenedPage> {
  const context = await newContext(browser, { serviceWorkers: 'block', viewport });
  const shop = shopRecord();
  await context.route('**/runs/index.json', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(index) }),
  );
  await context.route(`**/runs/${shop.file}`, (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(shop.run) }),
  );
  return openTab(context, hash);
}
