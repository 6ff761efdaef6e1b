import { neutralizeFormula, rowToCustomerBody } from './bulk-import';

test.each([
  ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
  ['@HYPERLINK("http://evil.example","x")', '\'@HYPERLINK("http://evil.example","x")'],
  ['+HYPERLINK("x")', '\'+HYPERLINK("x")'],
  ["-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"],
  ['+1+cmd|x', "'+1+cmd|x"],
])('a formula cell %s is kept as text', (cell, stored) => {
  expect(neutralizeFormula(cell)).toBe(stored);
});

test.each(['Ann One', '+52 55 1234 5678', '-12.5', '(555) 123-4567', "O'Brien", 'a=b'])(
  '%s is left as it is',
  (cell) => {
    expect(neutralizeFormula(cell)).toBe(cell);
  },
);

test('tab- and CR-prefixed formulas are trimmed, then neutralised, in every column of a row', () => {
  const { body } = rowToCustomerBody({
    platformCustomerId: 'p-1',
    customerType: 'INDIVIDUAL',
    fullName: "\t=cmd|' /C calc'!A0",
    birthDate: '1990-01-15',
    addressLine1: '\r@SUM(1+1)',
    city: 'Austin',
    state: 'TX',
    postalCode: '78701',
    country: 'US',
  });
  expect(body).toMatchObject({ fullName: "'=cmd|' /C calc'!A0", address: { line1: "'@SUM(1+1)" } });
});
