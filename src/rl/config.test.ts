import { describe, expect, it } from 'vitest';
import { rangeProblem, writtenValueProblem } from '../common/setting_range.ts';
import {
  applySettings,
  checkConfig,
  defaultConfig,
  PAPER_CONFIG,
  TRAIN_KEYS,
  TRAIN_SETTINGS,
  type TrainConfig,
} from './config.ts';

describe('the settings table', () => {
  it('keeps the paper values and overrides them for the micro and tiny presets', () => {
    expect(PAPER_CONFIG.lambda).toBe(0.01);
    expect(PAPER_CONFIG.groupSize).toBe(8);
    expect(PAPER_CONFIG.tasksPerUpdate).toBe(16);
    expect(PAPER_CONFIG.evalTemperature).toBe(0.4);
    expect(defaultConfig('tiny').lambda).toBe(0.1);
    expect(defaultConfig('micro')).toEqual(defaultConfig('tiny'));
    expect(defaultConfig('small')).toEqual(PAPER_CONFIG);
  });

  it('puts every paper and preset value inside its own range', () => {
    for (const preset of ['micro', 'tiny', 'small'] as const) expect(checkConfig(defaultConfig(preset))).toBeTruthy();
    expect(checkConfig({ ...PAPER_CONFIG })).toBeTruthy();
    for (const key of TRAIN_KEYS) {
      const s = TRAIN_SETTINGS[key];
      expect(s.min, key).toBeLessThan(s.max);
      expect(s.doc.length, key).toBeGreaterThan(10);
    }
  });

  it('gives every setting a finite maximum, so a huge value is refused with the key named', () => {
    for (const key of TRAIN_KEYS) {
      expect(Number.isFinite(TRAIN_SETTINGS[key].max), key).toBe(true);
      expect(() => applySettings(defaultConfig('tiny'), [`${key}=1e9`]), key).toThrow(
        new RegExp(`setting ${key} is (outside|not 0 or 1)`),
      );
    }
    expect(() => applySettings(defaultConfig('tiny'), ['groupSize=100000000'])).toThrow(RangeError);
    expect(() => applySettings(defaultConfig('tiny'), ['groupSize=100000000'])).toThrow(
      'setting groupSize is outside [1, 64], got 100000000',
    );
  });

  it('describes a refused value: not finite, not whole, not a switch, out of range, at an excluded maximum', () => {
    expect(rangeProblem(TRAIN_SETTINGS.lr, Number.NaN)).toBe('not a finite number');
    expect(rangeProblem(TRAIN_SETTINGS.groupSize, 2.5)).toBe('not a whole number');
    expect(rangeProblem(TRAIN_SETTINGS.constrained, 2)).toBe('not 0 or 1');
    expect(rangeProblem(TRAIN_SETTINGS.beta, -1)).toBe('outside [0, 100]');
    expect(rangeProblem(TRAIN_SETTINGS.clip, 1)).toBe('outside [0, 1)');
    expect(rangeProblem(TRAIN_SETTINGS.clip, 0.999)).toBeNull();
    expect(rangeProblem(TRAIN_SETTINGS.beta, 100)).toBeNull();
  });

  it('refuses a value that is not 0 but rounds to 0 in float32, by its number or by its text, and keeps 0 itself', () => {
    expect(rangeProblem(TRAIN_SETTINGS.lr, 1e-320)).toBe('too small: it rounds to 0 in float32');
    expect(rangeProblem(TRAIN_SETTINGS.lr, 1e-40)).toBeNull();
    expect(writtenValueProblem(TRAIN_SETTINGS.lambda, '1e-400', Number('1e-400'))).toBe(
      'too small: it rounds to 0 in float32',
    );
    expect(writtenValueProblem(TRAIN_SETTINGS.lambda, '0.0e-400', 0)).toBeNull();
    expect(writtenValueProblem(TRAIN_SETTINGS.groupSize, '0', 0)).toBe('outside [1, 64]');
    expect(() => applySettings(defaultConfig('tiny'), ['lambda=1e-400'])).toThrow(
      'setting lambda is too small: it rounds to 0 in float32, got 1e-400',
    );
    expect(() => applySettings(defaultConfig('tiny'), ['lr=1e-320'])).toThrow(
      'setting lr is too small: it rounds to 0 in float32, got 1e-320',
    );
    expect(applySettings(defaultConfig('tiny'), ['lr=0']).lr).toBe(0);
  });
});

describe('--set key=value', () => {
  it('applies key=value and refuses unknown keys and bad values with the key named', () => {
    const c = applySettings(defaultConfig('tiny'), ['lambda=0.5', 'beta = 2', 'constrained=false']);
    expect([c.lambda, c.beta, c.constrained]).toEqual([0.5, 2, 0]);
    expect(() => applySettings(c, ['lamda=1'])).toThrow(/unknown setting "lamda"/);
    expect(() => applySettings(c, ['lr=abc'])).toThrow(/lr needs a finite number/);
    expect(() => applySettings(c, ['groupSize=2.5'])).toThrow(/groupSize is not a whole number/);
    expect(() => applySettings(c, ['clip=1.5'])).toThrow(/clip is outside \[0, 1\)/);
    expect(() => applySettings(c, ['eps=0'])).toThrow(/eps is outside/);
    expect(() => applySettings(c, ['lr'])).toThrow(/not key=value/);
  });
});

describe('a saved run', () => {
  it('fills the settings added since an older run checkpoint was written with the values it ran with', () => {
    const old: Partial<TrainConfig> = { ...defaultConfig('tiny') };
    delete old.resampleRounds;
    delete old.annotatorSkills;
    expect(checkConfig(old as TrainConfig).resampleRounds).toBe(0);
    expect(old.resampleRounds).toBe(0);
    expect(old.annotatorSkills).toBe(0);
    const missing: Partial<TrainConfig> = { ...defaultConfig('tiny') };
    delete missing.lambda;
    expect(() => checkConfig(missing as TrainConfig)).toThrow(/setting lambda must be a number/);
    expect(() => checkConfig({ ...defaultConfig('tiny'), resampleRounds: 1.5 })).toThrow(
      /resampleRounds is not a whole number/,
    );
  });
});
