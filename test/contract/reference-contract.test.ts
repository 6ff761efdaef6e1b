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
