import { Type } from '@sinclair/typebox';
import { pageQuery, Page, Processing, SignedRetryChallenge } from './common-schemas';
import { BeneficialOwner } from './kyc-contract';
import { operation } from './operation';
import { ClosedObject, Country, CurrencyCode, DateTime, Id, named, StringEnum } from './schema-kit';
import { CUSTOMER_TYPES } from '../../lib/contract/customer-vocabulary';
import { businessCustomerMembers, IndividualCustomer } from '../../lib/contract/customer-records';
import { Address, CustomerCreateRequest, CustomerUpdateRequest } from '../../lib/contract/customer-requests';

/** The request schemas live in lib/contract: the CSV import checks its rows with the same CustomerCreateRequest. */
export { Address };

const BusinessCustomer = named(
  'BusinessCustomer',
  ClosedObject({
    ...businessCustomerMembers,
    beneficialOwners: Type.Optional(
      Type.Array(BeneficialOwner, { description: "The business's beneficial owners, directors and officers" }),
    ),
  }),
);

export const Customer = named('Customer', Type.Union([IndividualCustomer, BusinessCustomer]));

export const EndUserTerms = named(
  'EndUserTerms',
  ClosedObject({ version: Type.String(), url: Type.String({ format: 'uri' }) }),
);

const customerId = { customerId: Id('Customer') };
const TAGS = ['Customers'];

const CONTACT_TAGS = ['Contact Verification'];
const ContactCodeRequest = named(
  'ContactVerificationConfirmRequest',
  Type.Object({ code: Type.String({ description: 'The 6-digit code (sandbox: 123456)' }) }),
);
const contactOperations = (['email', 'phone'] as const).flatMap((channel) => {
  const Channel = channel === 'email' ? 'Email' : 'Phone';
  return [
    operation({
      operationId: `sendCustomer${Channel}Verification`,
      method: 'post',
      path: `/customers/{customerId}/verify-${channel}`,
      tags: CONTACT_TAGS,
      summary:
        `Send (or resend) a one-time code to the customer's ${channel}; 409 where the region does not require it`,
      pathParams: customerId,
      success: { 204: null },
      errors: [404, 409],
    }),
    operation({
      operationId: `confirmCustomer${Channel}Verification`,
      method: 'post',
      path: `/customers/{customerId}/verify-${channel}/confirm`,
      tags: CONTACT_TAGS,
      summary: `Confirm the code sent to the customer's ${channel}`,
      pathParams: customerId,
      body: ContactCodeRequest,
      success: { 200: Customer },
      errors: [404, 409],
    }),
  ];
});

export const ImportJob = named(
  'BulkCustomerImportJob',
  ClosedObject({
    id: Id('BulkUploadJob'),
    status: StringEnum(['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const),
    progress: ClosedObject({
      total: Type.Integer(),
      processed: Type.Integer(),
      successful: Type.Integer(),
      failed: Type.Integer(),
    }),
    errors: Type.Optional(Type.Array(ClosedObject({
      correlationId: Type.String({ description: 'The row\'s platformCustomerId, "row N", or "file"' }),
      code: Type.String(),
      message: Type.String(),
      details: Type.Optional(Type.Object({}, { additionalProperties: true })),
    }))),
    completedAt: Type.Optional(DateTime()),
  }),
);

const bulkOperations = [
  operation({
    operationId: 'uploadCustomersCsv',
    method: 'post',
    path: '/customers/bulk/csv',
    tags: TAGS,
    summary: 'Create customers from a CSV file (multipart/form-data, field `file`): answers a job at once',
    body: Type.Object({
      file: Type.String({
        contentEncoding: 'binary',
        description: "CSV with the reference's columns, at most 10 MB and 10,000 rows",
      }),
    }),
    bodyMediaType: 'multipart/form-data',
    success: {
      202: named(
        'BulkCustomerImportJobAccepted',
        ClosedObject({ jobId: Id('BulkUploadJob'), status: StringEnum(['PENDING', 'PROCESSING'] as const) }),
      ),
    },
  }),
  operation({
    operationId: 'getBulkCustomerImportJob',
    method: 'get',
    path: '/customers/bulk/jobs/{jobId}',
    tags: TAGS,
    summary: 'A CSV import job: status, progress and the errors of failed rows',
    pathParams: { jobId: Id('BulkUploadJob') },
    success: { 200: ImportJob },
    errors: [404],
  }),
];

export const customerOperations = [
  ...contactOperations,
  ...bulkOperations,
  operation({
    operationId: 'createCustomer',
    method: 'post',
    path: '/customers',
    tags: TAGS,
    summary: 'Create a customer',
    body: CustomerCreateRequest,
    validatedWithUseCase: true,
    success: { 201: Customer },
    errors: [409],
  }),
  operation({
    operationId: 'listCustomers',
    method: 'get',
    path: '/customers',
    tags: TAGS,
    summary: 'List customers, newest first, with filters',
    query: {
      platformCustomerId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
      customerType: Type.Optional(StringEnum(CUSTOMER_TYPES)),
      createdAfter: Type.Optional(DateTime()),
      createdBefore: Type.Optional(DateTime()),
      updatedAfter: Type.Optional(DateTime()),
      updatedBefore: Type.Optional(DateTime()),
      region: Type.Optional(Country()),
      currency: Type.Optional(CurrencyCode),
      umaAddress: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
      isIncludingDeleted: Type.Optional(Type.String({ description: 'true or false' })),
      ...pageQuery,
    },
    success: { 200: Page('CustomerList', Customer) },
  }),
  operation({
    operationId: 'getEndUserTerms',
    method: 'get',
    path: '/customers/end-user-terms',
    tags: TAGS,
    summary: 'The current end-user terms',
    success: { 200: EndUserTerms },
  }),
  operation({
    operationId: 'getCustomer',
    method: 'get',
    path: '/customers/{customerId}',
    tags: TAGS,
    summary: 'Read a customer',
    pathParams: customerId,
    success: { 200: Customer },
    errors: [404],
  }),
  operation({
    operationId: 'updateCustomer',
    method: 'patch',
    path: '/customers/{customerId}',
    tags: TAGS,
    summary: 'Update a customer; changing an email tied to wallet credentials is a signed retry',
    pathParams: customerId,
    headers: ['walletSignature', 'requestId'],
    body: CustomerUpdateRequest,
    validatedWithUseCase: true,
    success: { 200: Type.Union([Customer, Processing]), 202: SignedRetryChallenge },
    errors: [404, 409, 410, 424],
  }),
  operation({
    operationId: 'deleteCustomer',
    method: 'delete',
    path: '/customers/{customerId}',
    tags: TAGS,
    summary: 'Delete a customer (kept readable with isDeleted); refused '
      + 'with 409 while it holds funds, 410 when deleted already',
    pathParams: customerId,
    success: { 200: Customer },
    errors: [404, 409, 410],
  }),
];
