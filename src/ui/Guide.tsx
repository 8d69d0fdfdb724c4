// What helps a person find their way: links that skip to each part of the page, the short account of SEED,
// the keyboard shortcuts, and the definitions of the symbols beside the tables that show them.
import { useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import { GUIDE, PAPER_URL, SHORTCUTS, SYMBOLS, type SymbolName } from './explain.ts';
import { usePlayground } from './store.ts';

const SKIP_TARGETS: readonly [id: string, label: string][] = [
  ['controls-title', 'Training controls'],
  ['curves-title', 'Curves'],
  ['episodes-title', 'Episodes'],
  ['stages-title', 'Stage view'],
];

/**
 * Moves the focus to a part of the page. The URL's hash holds the settings, so a skip link never follows its
 * href: it focuses its target (a heading, focusable from script only) and scrolls to it.
 */
function skipTo(event: MouseEvent<HTMLAnchorElement>, id: string): void {
  event.preventDefault();
  const target = document.getElementById(id);
  if (!target) return;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus();
  target.scrollIntoView({ block: 'start' });
}

export function SkipLinks() {
  return (
    <nav className="skip-links" aria-label="Skip to">
      {SKIP_TARGETS.map(([id, label]) => (
        <a key={id} href={`#${id}`} onClick={(e) => skipTo(e, id)} data-testid={`skip-${id.replace('-title', '')}`}>
          Skip to {label.toLowerCase()}
        </a>
      ))}
    </nav>
  );
}

export function Guide() {
  return (
    <details className="panel guide" data-testid="guide">
      <summary>
        <strong>What SEED does, in plain words</strong> <span className="muted">(a two-minute read)</span>
      </summary>
      {GUIDE.map((g) => (
        <section key={g.title} className="guide-part">
          <h3>{g.title}</h3>
          <p>{g.text}</p>
        </section>
      ))}
      <p>
        Read more in the paper,{' '}
        <a href={PAPER_URL} target="_blank" rel="noopener noreferrer" data-testid="paper-link">
          SEED: Self-Evolving On-Policy Distillation (arXiv)
        </a>
        . The project’s README, in its repository, explains how to run the same training from the command line; its
        docs/seed-loss.md gives every formula this page shows.
      </p>
    </details>
  );
}

/** Whether a key press belongs to what has the focus: typing in a field, or Space on a control. */
function ownedByTarget(event: KeyboardEvent): boolean {
  const el = event.target instanceof HTMLElement ? event.target : null;
  if (!el) return false;
  if (el.isContentEditable || el.closest('input, select, textarea')) return true;
  return event.key === ' ' && el.closest('button, a, summary, [role="button"], [tabindex]') !== null;
}

/** Space plays or pauses, S steps one update, N runs the next stage; never while typing, nor with a modifier. */
export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (
        event.defaultPrevented ||
        event.ctrlKey ||
        event.metaKey ||
        event.altKey ||
        event.repeat ||
        ownedByTarget(event)
      )
        return;
      const key = event.key.toLowerCase();
      if (!SHORTCUTS.some((s) => s.key === key)) return;
      event.preventDefault();
      const s = usePlayground.getState();
      if (key === ' ') void (s.engine.state === 'playing' ? s.pause() : s.play());
      else if (key === 's') void s.stepUpdate();
      else void s.stepStage();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** A device whose main pointer is a finger or that cannot hover: it most likely has no keyboard to press keys on. */
const TOUCH_QUERY = '(pointer: coarse), (hover: none)';

function useTouchDevice(): boolean {
  const [touch, setTouch] = useState(() => typeof matchMedia === 'function' && matchMedia(TOUCH_QUERY).matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const query = matchMedia(TOUCH_QUERY);
    const onChange = () => setTouch(query.matches);
    onChange();
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return touch;
}

/** The keys, on a device that likely has a keyboard; a keyboard plugged into a touch device still works them. */
export function ShortcutList() {
  if (useTouchDevice()) return null;
  return (
    <p className="hint shortcuts" data-testid="shortcuts">
      Keys:{' '}
      {SHORTCUTS.map((s, i) => (
        <span key={s.key}>
          {i > 0 ? ', ' : ''}
          <kbd>{s.label}</kbd> {s.what}
        </span>
      ))}{' '}
      (not while typing in a field).
    </p>
  );
}

/** A symbol with its definition on hover and for screen readers. */
export function Sym({ name, children }: { name: SymbolName; children?: ReactNode }) {
  return (
    <abbr title={SYMBOLS[name]} data-symbol={name}>
      {children ?? name}
    </abbr>
  );
}

/** The definitions of the symbols a table shows, beside it. */
export function Symbols({ names }: { names: readonly SymbolName[] }) {
  if (names.length === 0) return null;
  return (
    <details className="symbols" data-testid="symbols">
      <summary>What the symbols mean</summary>
      <dl className="facts">
        {names.map((n) => (
          <div key={n} className="fact-row">
            <dt>{n}</dt>
            <dd data-symbol={n}>{SYMBOLS[n]}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
