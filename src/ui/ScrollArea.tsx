// A box for content wider than the screen (the number tables): it scrolls, and says so while it does.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import './scroll_area.css';

interface Overflow {
  /** Wider than the box: part of it is out of sight. */
  wide: boolean;
  /** Scrolled to its right edge. */
  atEnd: boolean;
}

function measure(el: HTMLElement): Overflow {
  const wide = el.scrollWidth > el.clientWidth + 1;
  return { wide, atEnd: !wide || el.scrollLeft + el.clientWidth >= el.scrollWidth - 1 };
}

/**
 * While its content is wider than it: a fade at the right edge (gone once scrolled to the end), a “scroll →”
 * hint above it, and a tab stop so that the keyboard can scroll it too.
 */
export function ScrollArea({ label, children }: { label: string; children: ReactNode }) {
  const body = useRef<HTMLElement>(null);
  const [overflow, setOverflow] = useState<Overflow>({ wide: false, atEnd: true });
  useEffect(() => {
    const el = body.current;
    if (!el) return;
    const update = () => {
      const next = measure(el);
      setOverflow((prev) => (prev.wide === next.wide && prev.atEnd === next.atEnd ? prev : next));
    };
    // Measured only where the browser has just laid the page out (a ResizeObserver reports each box it starts
    // observing once, then each change of its size), never at mount: a playing run mounts a new table at
    // every stage, and reading scrollWidth there would force a layout of the whole page each time.
    // The content's size changes with its rows (a new stage, a toggle), the box's with the window.
    const sizes = new ResizeObserver(update);
    const observe = () => {
      sizes.disconnect();
      sizes.observe(el);
      for (const child of Array.from(el.children)) sizes.observe(child);
    };
    observe();
    const children = new MutationObserver(observe);
    children.observe(el, { childList: true });
    el.addEventListener('scroll', update, { passive: true });
    return () => {
      sizes.disconnect();
      children.disconnect();
      el.removeEventListener('scroll', update);
    };
  }, []);

  return (
    <div className="scroll-area" data-testid="scroll-area" data-overflows={overflow.wide} data-at-end={overflow.atEnd}>
      {overflow.wide ? (
        <p className="scroll-hint" data-testid="scroll-hint" aria-hidden="true">
          {overflow.atEnd ? '← scroll' : 'scroll →'}
        </p>
      ) : null}
      <div className="scroll-frame">
        <section className="scroll-body" ref={body} aria-label={label} tabIndex={overflow.wide ? 0 : undefined}>
          {children}
        </section>
      </div>
    </div>
  );
}
