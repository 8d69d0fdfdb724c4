// The page's link with every setting (the hash the page keeps in its address, rl/page_settings.ts formatHash),
// copied with one click, so a run can be shared or opened again as it is set. Where the browser refuses the
// clipboard, the link is shown selected, to be copied by hand.
import { useEffect, useRef, useState } from 'react';
import { messageOf } from '../common/errors.ts';
import { formatHash } from '../rl/page_settings.ts';
import { usePlayground } from './store.ts';

type Copy = { state: 'idle' } | { state: 'copied'; link: string } | { state: 'refused'; link: string; why: string };

/** This page's address with the hash of `settings`: what opening it again reproduces. */
function linkOf(hash: string): string {
  return `${location.origin}${location.pathname}${location.search}${hash}`;
}

export function CopyLink() {
  const settings = usePlayground((s) => s.settings);
  const [copy, setCopy] = useState<Copy>({ state: 'idle' });
  const field = useRef<HTMLInputElement>(null);
  const link = linkOf(formatHash(settings));
  // What was copied stays said only while it is the link of the settings now.
  const shown = copy.state !== 'idle' && copy.link === link ? copy : null;
  useEffect(() => {
    if (shown?.state === 'refused') field.current?.select();
  }, [shown]);
  const onCopy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('this page has no clipboard access');
      await navigator.clipboard.writeText(link);
      setCopy({ state: 'copied', link });
    } catch (err) {
      setCopy({ state: 'refused', link, why: messageOf(err) });
    }
  };
  return (
    <div className="copy-link">
      <button type="button" className="secondary" onClick={() => void onCopy()} data-testid="copy-link">
        Copy link
      </button>
      <span role="status" aria-live="polite" data-testid="copy-link-status" data-state={shown?.state ?? 'idle'}>
        {shown?.state === 'copied' ? 'Copied: the link opens this page with every setting as it is now.' : null}
        {shown?.state === 'refused' ? `Not copied (${shown.why}); copy the link below by hand.` : null}
      </span>
      {shown?.state === 'refused' ? (
        <input
          ref={field}
          className="copy-link-field"
          type="text"
          readOnly
          value={shown.link}
          aria-label="The page's link with every setting"
          data-testid="copy-link-field"
        />
      ) : null}
    </div>
  );
}
