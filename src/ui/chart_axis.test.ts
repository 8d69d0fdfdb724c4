// The y axis's width holds its widest tick label whole, whatever the font: uPlot right-aligns the labels against
// the plot, so a narrower axis cuts the widest label's first characters at the chart's left edge.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tickLabels, yAxisSize } from './chart_readout.ts';

/** A font of `px` pixels a character, as a canvas would measure it. */
const monospace = (px: number) => (text: string) => px * text.length;
const TICK_AND_GAP = 15;
const MIN = 46;

/** Where the widest label starts, in pixels from the chart's left edge (uPlot draws it right-aligned). */
function leftEdge(labels: string[], measure: (text: string) => number): number {
  const size = yAxisSize(labels, measure, TICK_AND_GAP, MIN);
  return size - TICK_AND_GAP - Math.max(...labels.map(measure));
}

describe('yAxisSize', () => {
  it('holds a percentage label in a font wider than 7 pixels a character ("53.0%" read ":3.0%")', () => {
    const labels = tickLabels([0.52, 0.525, 0.53, 0.535], true);
    expect(labels.at(-1)).toBe('53.5%');
    // A guess of 7 pixels a character and 14 for the tick gave 49 pixels: in 8.5-pixel characters the label
    // started 8 pixels before the chart's edge.
    expect(14 + 7 * 5 - TICK_AND_GAP - 8.5 * 5).toBeLessThan(0);
    expect(leftEdge(labels, monospace(8.5))).toBeGreaterThanOrEqual(4);
  });

  it('keeps every label inside the chart whatever its width, and the least width for short ones', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 14 }), { minLength: 1, maxLength: 12 }),
        fc.double({ min: 3, max: 20, noNaN: true }),
        (labels, px) => {
          expect(leftEdge(labels, monospace(px))).toBeGreaterThanOrEqual(4 - 1e-9);
          expect(yAxisSize(labels, monospace(px), TICK_AND_GAP, MIN)).toBeGreaterThanOrEqual(MIN);
        },
      ),
      { numRuns: 300 },
    );
    expect(yAxisSize(['0%', '5%'], monospace(7), TICK_AND_GAP, MIN)).toBe(MIN);
    // Before uPlot has labels (its first sizing pass), the least width.
    expect(yAxisSize(null, monospace(7), TICK_AND_GAP, MIN)).toBe(MIN);
    expect(yAxisSize(['-0.00043', '0.0048'], (t) => 6.5 * t.length + 0.3, TICK_AND_GAP, MIN)).toBe(72);
  });
});
