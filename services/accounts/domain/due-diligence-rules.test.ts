import { fieldErrorsOf } from '../test-fixtures/field-errors';
import { createFieldsOf, customerCreateErrors, SUPPORTED } from '../test-fixtures/customer-create-cases';
import { validateCustomerUpdate } from './customer-validation';

/** The invalid fields of a create request (contract, then rules); none when it is accepted. */
function fields(body: Record<string, unknown>): string[] {
  return customerCreateErrors({ customerType: 'INDIVIDUAL', ...body }).map((e) => e.field);
}

describe('due-diligence rules on customer create and update', () => {
  test.each([
    [{ idType: 'SSN', identifier: '123-45-6789' }, []],
    [{ idType: 'SSN', identifier: '123456789' }, []],
    [{ idType: 'SSN', identifier: '000-12-3456' }, ['identifier']],
    [{ idType: 'SSN', identifier: 'ABC' }, ['identifier']],
    [{ idType: 'ITIN', identifier: '912-70-1234' }, []],
    [{ idType: 'ITIN', identifier: '123-45-6789' }, ['identifier']],
    [{ idType: 'SSN', identifier: '123-45-6789', countryOfIssuance: 'MX' }, ['countryOfIssuance']],
    [{ idType: 'NON_US_TAX_ID', identifier: 'XAXX010101000', countryOfIssuance: 'MX' }, []],
    [{ sourceOfFundsCategories: ['SALARY'], sourceOfFundsOtherDescription: 'lottery' }, [
      'sourceOfFundsOtherDescription',
    ]],
    [{ sourceOfFundsCategories: ['SALARY', 'OTHER'], sourceOfFundsOtherDescription: 'lottery' }, []],
    [{ sourceOfWealthCategories: ['SAVINGS'], sourceOfWealthOtherDescription: 'x' }, [
      'sourceOfWealthOtherDescription',
    ]],
    [{ purposeOfAccount: 'P2P_TRANSFERS', purposeOfAccountOtherDescription: 'x' }, [
      'purposeOfAccountOtherDescription',
    ]],
    [{ purposeOfAccount: 'OTHER', purposeOfAccountOtherDescription: 'household budget' }, []],
  ])('%j → %j', (body, expected) => {
    expect(fields(body)).toEqual(expected);
  });

  test("every problem is listed at once, beside the members' own shape errors", () => {
    expect(
      fields({
        idType: 'SSN',
        identifier: 'nope',
        countryOfIssuance: 'CA',
        pepStatus: 'MAYBE',
        purposeOfAccount: 'SAVING',
        purposeOfAccountOtherDescription: 'x',
      }),
    )
      .toEqual(expect.arrayContaining(['identifier', 'countryOfIssuance', 'pepStatus', 'purposeOfAccount']));
  });

  test('the same rules hold on update', () => {
    const errors = fieldErrorsOf(() =>
      validateCustomerUpdate(
        createFieldsOf({ customerType: 'INDIVIDUAL', idType: 'ITIN', identifier: '111-11-1111' }),
        'INDIVIDUAL',
        SUPPORTED,
      )
    );
    expect(errors.map((e) => e.field)).toEqual(['identifier']);
  });
});
