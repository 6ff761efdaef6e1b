import { referenceProblems } from './reference-contract';

const QUOTE_PATH = '/2025-10-13/quotes/Quote:00000000-0000-4000-8000-000000000000';

test('the reference refuses a record missing what it requires, and a member of the wrong type', () => {
  const problems = referenceProblems('GET', QUOTE_PATH, 200, { id: 7, status: 'PENDING' });
  expect(problems.length).toBeGreaterThan(0);
  expect(problems.join('\n')).toMatch(/GET \/quotes\/\{quoteId\} 200/);
});

test('answers the reference does not describe (an operation of ours only) are not judged by it', () => {
  expect(referenceProblems('GET', '/2025-10-13/webhooks/public-key', 200, { anything: true })).toEqual([]);
});

test('answers to the operations completed by the reference are asserted, not just reported', async () => {
  const { assertReferenceAccepts } = await import('./reference-contract');
  expect(() => assertReferenceAccepts('GET', QUOTE_PATH, 200, { id: 7, status: 'PENDING' })).toThrow(
    /the reference refuses this answer/,
  );
  expect(() =>
    assertReferenceAccepts('GET', QUOTE_PATH, 404, { status: 404, code: 'QUOTE_NOT_FOUND', message: 'Quote not found' })
  ).not.toThrow();
  expect(() =>
    assertReferenceAccepts('GET', QUOTE_PATH, 404, { status: 404, code: 'NOT_FOUND', message: 'Quote not found' })
  ).toThrow(/code/);
  // Others are only reported (REFERENCE_REPORT) until their resources are completed.
  expect(() =>
    assertReferenceAccepts('GET', '/2025-10-13/agents/Agent:00000000-0000-4000-8000-000000000000', 200, { id: 7 })
  ).not.toThrow();
});
