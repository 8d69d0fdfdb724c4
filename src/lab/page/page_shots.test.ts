// The README's pictures of the first screen show the records the page ships: their sidecar names the SHA-256 of
// every recorded-run file the pictured page read, and each must still be the shipped file's. When a record or the
// index changes, this fails until `npm run seed -- bench page --shots` retakes the pictures with it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHash } from '../../rl/page_settings.ts';
import { checkRecordIndex, newestRecord } from '../../rl/recorded_run_check.ts';
import { readShotsSidecar, sha256, SHOT_VIEWPORTS, shotName } from './page_shots.ts';

const SHOTS = 'bench/shots';
const RETAKE = 'retake the pictures with `npm run seed -- bench page --shots`';

describe("the first screen's pictures", () => {
  const sidecar = readShotsSidecar(SHOTS);

  it('are both there, as the sidecar names them', () => {
    expect(sidecar.pictures).toEqual(SHOT_VIEWPORTS.map(shotName));
    for (const picture of sidecar.pictures) expect(existsSync(join(SHOTS, picture)), picture).toBe(true);
  });

  it("name the index and the record the first screen draws at the pictures' link", () => {
    const index = checkRecordIndex(JSON.parse(readFileSync('public/runs/index.json', 'utf8')));
    const world = parseHash(sidecar.link).settings.env;
    const drawn = newestRecord(index, world);
    expect(Object.keys(sidecar.records), RETAKE).toContain('public/runs/index.json');
    if (drawn) expect(Object.keys(sidecar.records), RETAKE).toContain(`public/runs/${drawn.file}`);
  });

  it('were taken with the record files that ship now', () => {
    for (const [path, hash] of Object.entries(sidecar.records)) {
      expect(existsSync(path), `${path} is gone: ${RETAKE}`).toBe(true);
      expect(sha256(readFileSync(path)), `${path} changed since the pictures were taken: ${RETAKE}`).toBe(hash);
    }
  });
});
