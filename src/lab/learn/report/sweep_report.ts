// Each arm's settings as learn.json keeps them (sweep.ts chooses them; learn.md's section on the sweeps is
// written in learn_prose.ts).
import type { Algo } from '../../../rl/arms.ts';
import type { ArmSettings } from '../sweeps/sweep.ts';
import { usesOpidWeight } from '../../../rl/arms.ts';

/** Every arm's settings as learn.json keeps them; the OPID weight only for the arm it changes (OPID's). */
export function settingsJson(settings: ReadonlyMap<Algo, ArmSettings>): Record<string, unknown> {
  return Object.fromEntries(
    [...settings].map(([a, s]) => [
      a,
      usesOpidWeight(a)
        ? { lr: s.lr, lambda: s.lambda, opidWeight: s.opidWeight, rehearsal: s.rehearsal, how: s.how }
        : {
            lr: s.lr,
            lambda: s.lambda,
            rehearsal: s.rehearsal,
            how: { lr: s.how.lr, lambda: s.how.lambda, rehearsal: s.how.rehearsal },
          },
    ]),
  );
}
