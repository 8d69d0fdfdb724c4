// The step-through's tables of trajectories and of tokens, each in a box that scrolls on a narrow screen,
// with the example token (stage_example.ts) and its trajectory marked.
import type { ReactNode } from 'react';
import type { CreditView, TrajectoryView } from '../worker/protocol.ts';
import { fmt } from './EpisodeView.tsx';
import type { SymbolName } from './explain.ts';
import { Sym } from './Guide.tsx';
import { isForced } from './run_record.ts';
import { ScrollArea } from './ScrollArea.tsx';
import { trajectoryLabel, type ExampleToken } from './stage_example.ts';

export function RolloutTable({
  trajectories,
  selected,
  example,
}: {
  trajectories: TrajectoryView[];
  selected: TrajectoryView | null;
  example: ExampleToken | null;
}) {
  return (
    <ScrollArea label="Rollout table">
      <table className="numbers" data-testid="stage-table">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Task</th>
            <th scope="col">Steps</th>
            <th scope="col">Won</th>
            <th scope="col">
              Commands (mean <Sym name="l_old" />)
            </th>
          </tr>
        </thead>
        <tbody>
          {trajectories.map((t) => {
            const mine = t.index === selected?.index;
            return (
              <tr key={t.index} className={mine ? 'example-row' : undefined} data-example={mine || undefined}>
                <td>{trajectoryLabel(t)}</td>
                <td>{t.goal}</td>
                <td className="num">{t.steps.length}</td>
                <td>{t.won ? 'yes' : 'no'}</td>
                <td>
                  {t.steps.map((s, i) => {
                    let sum = 0;
                    for (let k = s.tokenStart; k < s.tokenStart + s.tokenCount; k++) sum += t.lOld[k];
                    const chip = (
                      <>
                        {s.command} <span className="muted">({fmt(sum / Math.max(1, s.tokenCount))})</span>
                      </>
                    );
                    return (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a game's commands never change order
                      <span key={i} className="cmd-chip">
                        {mine && example?.step === i + 1 ? <mark className="example-token">{chip}</mark> : chip}
                      </span>
                    );
                  })}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollArea>
  );
}

/** Over the whole update: whether Delta is larger on the tokens of the expert's shortest plans. */
export function CreditNote({ credit }: { credit: CreditView }) {
  const { corrDeltaExpert, decisionTokens, meanDelta, meanGate } = credit;
  return (
    <span data-testid="stage-credit">
      . Over the update’s {decisionTokens} decision tokens: <Sym name="corr(Δ, expert)" />{' '}
      {corrDeltaExpert === null ? 'not defined' : corrDeltaExpert.toFixed(3)}
      {meanDelta !== null && meanGate !== null ? `, mean Δ ${fmt(meanDelta)}, mean gate ${fmt(meanGate)}` : ''}
    </span>
  );
}

type Column = [SymbolName, (t: TrajectoryView, k: number) => number | undefined];

interface TokenTableProps {
  t: TrajectoryView;
  columns: Column[];
  note?: ReactNode;
  example: ExampleToken | null;
  /** Forced tokens (the command trie allowed them alone: log-probs and Δ all 0) are rows only when shown. */
  showForced: boolean;
  onShowForced: (show: boolean) => void;
}

export function TokenTable({ t, columns, note, example, showForced, onShowForced }: TokenTableProps) {
  const forced = t.tokens.reduce((n, _, k) => n + (isForced(t, k) ? 1 : 0), 0);
  return (
    <>
      <p className="stage-table-note" data-testid="stage-table-note">
        Pick another trajectory in Episodes; the exports hold every trajectory
        {forced > 0 && !showForced
          ? `. ${forced} forced tokens are hidden: the command trie allowed each alone (probability 1, Δ 0, no gradient)`
          : ''}
        {note ? <>. {note}</> : null}
      </p>
      {forced > 0 ? (
        <button
          type="button"
          className="secondary forced-toggle"
          aria-pressed={showForced}
          onClick={() => onShowForced(!showForced)}
          data-testid="forced-toggle"
          data-forced={forced}
        >
          {showForced ? 'Hide' : 'Show'} forced tokens ({forced})
        </button>
      ) : null}
      <ScrollArea label="Token table">
        <table className="numbers" data-testid="stage-table">
          <caption>Per command token of trajectory {trajectoryLabel(t)}</caption>
          <thead>
            <tr>
              <th scope="col">step</th>
              <th scope="col">token</th>
              {columns.map(([name]) => (
                <th key={name} scope="col">
                  <Sym name={name} />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {t.steps.flatMap((s, i) =>
              Array.from({ length: s.tokenCount }, (_, j) => s.tokenStart + j)
                .filter((k) => showForced || !isForced(t, k))
                .map((k) => {
                  const mine = k === example?.k;
                  return (
                    <tr
                      key={k}
                      className={mine ? 'example-row' : undefined}
                      data-example={mine || undefined}
                      data-forced={isForced(t, k)}
                    >
                      <td className="num">{i + 1}</td>
                      <td>{mine ? <mark className="example-token">{t.tokens[k]}</mark> : t.tokens[k]}</td>
                      {columns.map(([name, get]) => {
                        const v = get(t, k);
                        return (
                          <td key={name} className="num">
                            {v === undefined ? '—' : fmt(v)}
                          </td>
                        );
                      })}
                    </tr>
                  );
                }),
            )}
          </tbody>
        </table>
      </ScrollArea>
    </>
  );
}
