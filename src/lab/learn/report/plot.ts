// The learning-curve plot of `bench learn` as a standalone SVG: per algorithm its mean eval-unseen curve
// (bold) over the curves of its seeds (faint), training episodes on the x axis.
import { partControlTable, type Algo, type PartArm, type PartControl, type SkillPart } from '../../../rl/arms.ts';

export interface Series {
  label: string;
  color: string;
  curve: [number, number][];
  seeds: [number, number][][];
}

export function curveSvg(series: Series[]): string {
  const W = 640;
  const H = 360;
  const m = { l: 56, r: 150, t: 20, b: 44 };
  const all = series.flatMap((s) => [...s.curve, ...s.seeds.flat()]);
  const xMax = Math.max(1, ...all.map(([e]) => e));
  const yMax = Math.min(1, Math.max(0.1, ...all.map(([, y]) => y)) * 1.1);
  const x = (e: number) => m.l + (e / xMax) * (W - m.l - m.r);
  const y = (v: number) => H - m.b - (v / yMax) * (H - m.t - m.b);
  const path = (c: [number, number][]) =>
    c.map(([e, v], i) => `${i ? 'L' : 'M'}${x(e).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<line x1="${m.l}" y1="${H - m.b}" x2="${W - m.r}" y2="${H - m.b}" stroke="black"/>`,
    `<line x1="${m.l}" y1="${m.t}" x2="${m.l}" y2="${H - m.b}" stroke="black"/>`,
    `<text x="${(m.l + W - m.r) / 2}" y="${H - 8}" text-anchor="middle">training episodes</text>`,
    `<text x="14" y="${(m.t + H - m.b) / 2}" transform="rotate(-90 14 ${(m.t + H - m.b) / 2})" text-anchor="middle">success on eval-unseen</text>`,
  ];
  for (let k = 0; k <= 4; k++) {
    const v = (yMax * k) / 4;
    parts.push(`<text x="${m.l - 6}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(2)}</text>`);
    const e = (xMax * k) / 4;
    parts.push(`<text x="${x(e)}" y="${H - m.b + 16}" text-anchor="middle">${Math.round(e)}</text>`);
  }
  series.forEach((s, i) => {
    for (const c of s.seeds) parts.push(`<path d="${path(c)}" fill="none" stroke="${s.color}" stroke-opacity="0.25"/>`);
    parts.push(`<path d="${path(s.curve)}" fill="none" stroke="${s.color}" stroke-width="2.5"/>`);
    parts.push(`<text x="${W - m.r + 10}" y="${m.t + 16 + 18 * i}" fill="${s.color}">${s.label}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

/** A colour per part, its seed control's and its seed-exact control's. */
const PART_COLORS: Readonly<Record<SkillPart, Readonly<Record<PartArm, string>>>> = {
  crossgame: { seed: '#e377c2', 'seed-exact': '#882255' },
  procedure: { seed: '#bcbd22', 'seed-exact': '#999933' },
  facts: { seed: '#aec7e8', 'seed-exact': '#117733' },
  empty: { seed: '#c7c7c7', 'seed-exact': '#555555' },
  shuffled: { seed: '#ffbb78', 'seed-exact': '#aa4499' },
  frozen: { seed: '#98df8a', 'seed-exact': '#225555' },
};

export const COLORS: Readonly<Record<Algo, string>> = {
  grpo: '#1f77b4',
  seed: '#d62728',
  'seed-static': '#2ca02c',
  'seed-sibling': '#9467bd',
  'seed-annotator': '#17becf',
  opid: '#ff7f0e',
  'seed-nogate': '#8c564b',
  'seed-exact': '#332288',
  ...partControlTable((arm, part) => PART_COLORS[part][arm]),
} satisfies Record<Exclude<Algo, PartControl>, string>;
