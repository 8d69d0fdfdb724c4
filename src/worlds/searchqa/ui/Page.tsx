// A page of the search-QA world in the episode view and the ONNX player (page.ts reads its text): the
// retrieved passages one a line, each with its number as Search-R1 writes it ("Doc 1:"), the answer's grade, or
// the page's text. The opening page is the question, which the task line above states.
import { OBSERVATIONS } from '../env/observations.ts';
import { type QaPageView, readQaPage } from './page.ts';

export function QaPage({ text }: { text: string }) {
  const page = readQaPage(text);
  return (
    <div className="observation" data-testid="qa-page" data-kind={page.kind}>
      <PageBody page={page} />
    </div>
  );
}

function PageBody({ page }: { page: QaPageView }) {
  switch (page.kind) {
    case 'question':
      return page.question === '' ? (
        <p className="muted">(the question, on the task line above)</p>
      ) : (
        <p data-testid="qa-question">
          <strong>{OBSERVATIONS.question}</strong> {page.question}
        </p>
      );
    case 'results':
      return page.passages.map((p) => (
        <p key={p.n} data-testid="qa-passage" data-n={p.n}>
          <strong>
            {OBSERVATIONS.doc} {p.n}:
          </strong>{' '}
          {p.text}
        </p>
      ));
    case 'answer':
      return (
        <p className={page.correct ? 'ok' : 'bad'} data-testid="qa-grade">
          {page.text}
        </p>
      );
    case 'text':
      return <p>{page.text}</p>;
  }
}
