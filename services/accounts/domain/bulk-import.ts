import { parse } from 'csv-parse/sync';
import { CustomerFields } from '../../../gen/accounts/v1/customer_requests';
import { customerCreateShapeErrors } from '../../../lib/contract/customer-requests';
import { CUSTOMER_TYPES } from '../../../lib/contract/customer-vocabulary';
import type { FieldError } from '../../../lib/errors';

export type ImportJobStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';
export type ImportRowState = 'PENDING' | 'CLAIMED' | 'DONE' | 'FAILED';

export interface ImportRowError {
  correlationId: string;
  code: string;
  message: string;
  fieldErrors?: FieldError[];
}

export interface ImportJob {
  id: string;
  platformId: string;
  status: ImportJobStatus;
  total: number;
  /** Why the whole file failed (unreadable, no rows, missing columns). */
  fileError?: ImportRowError;
  createdAt: string;
  completedAt?: string;
}

export interface ImportRow {
  id: string;
  jobId: string;
  platformId: string;
  index: number;
  correlationId: string;
  /** The REST CustomerCreateRequest the row stands for, or the problems found in the row itself. */
  body?: Record<string, unknown>;
  rowErrors?: FieldError[];
  state: ImportRowState;
  attempts: number;
  error?: ImportRowError;
  customerId?: string;
}

/** The reference's columns (and `businessIncorporatedOn`, which our business customers require). */
export const CSV_COLUMNS = [
  'umaAddress',
  'platformCustomerId',
  'customerType',
  'fullName',
  'birthDate',
  'addressLine1',
  'addressLine2',
  'city',
  'state',
  'postalCode',
  'country',
  'platformAccountId',
  'description',
  'email',
  'businessLegalName',
  'businessRegistrationNumber',
  'businessTaxId',
  'businessIncorporatedOn',
] as const;
const REQUIRED_HEADERS = ['platformCustomerId', 'customerType'];
const REQUIRED_BY_TYPE: Record<(typeof CUSTOMER_TYPES)[number], string[]> = {
  INDIVIDUAL: ['fullName', 'birthDate', 'addressLine1', 'city', 'state', 'postalCode', 'country'],
  BUSINESS: ['businessLegalName', 'addressLine1', 'city', 'state', 'postalCode', 'country'],
};
export const MAX_IMPORT_ROWS = 10_000;

type Row = Record<string, string>;

/**
 * A cell a spreadsheet would run as a formula (`=…`, `@…`, `+…`, `-…`; tab and CR prefixes are
 * trimmed first) is kept as text with a leading `'` (OWASP's CSV-injection advice), so a customer
 * record exported later to a spreadsheet cannot run it. A signed number or phone number
 * (`+52 55 1234 5678`, `-12.5`) is left as it is.
 */
export function neutralizeFormula(cell: string): string {
  if (/^[=@]/.test(cell)) return `'${cell}`;
  if (/^[+-]/.test(cell) && !/^[+-][0-9][0-9 ().,-]*$/.test(cell)) return `'${cell}`;
  return cell;
}

const value = (row: Row, column: string) => {
  const text = (row[column] ?? '').trim();
  return text ? neutralizeFormula(text) : undefined;
};

function prune<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** One CSV row as the REST create body; the row's own problems (missing required columns) listed. */
export function rowToCustomerBody(row: Row): { body?: Record<string, unknown>; rowErrors?: FieldError[] } {
  const type = value(row, 'customerType')?.toUpperCase();
  const known = CUSTOMER_TYPES.find((t) => t === type);
  const required = [...REQUIRED_HEADERS, ...(known ? REQUIRED_BY_TYPE[known] : [])];
  const rowErrors: FieldError[] = required.filter((c) => !value(row, c)).map((field) => ({
    field,
    message: 'is required',
  }));
  if (type && !known) {
    rowErrors.push({
      field: 'customerType',
      message: `must be one of ${CUSTOMER_TYPES.join(', ')}`,
      constraint: { enum: [...CUSTOMER_TYPES] },
    });
  }
  if (rowErrors.length) return { rowErrors };
  const uma = value(row, 'umaAddress');
  const address = prune({
    line1: value(row, 'addressLine1'),
    line2: value(row, 'addressLine2'),
    city: value(row, 'city'),
    state: value(row, 'state'),
    postalCode: value(row, 'postalCode'),
    country: value(row, 'country'),
  });
  const common = prune({
    customerType: type,
    platformCustomerId: value(row, 'platformCustomerId'),
    umaAddress: uma && !uma.startsWith('$') ? `$${uma}` : uma,
    email: value(row, 'email'),
    address,
  });
  if (type === 'BUSINESS') {
    return {
      body: {
        ...common,
        businessInfo: prune({
          legalName: value(row, 'businessLegalName'),
          registrationNumber: value(row, 'businessRegistrationNumber'),
          taxId: value(row, 'businessTaxId'),
          incorporatedOn: value(row, 'businessIncorporatedOn'),
          country: value(row, 'country'),
        }),
      },
    };
  }
  return { body: { ...common, ...prune({ fullName: value(row, 'fullName'), birthDate: value(row, 'birthDate') }) } };
}

/**
 * A row's create request: the members CustomerCreateRequest refuses (checked with the contract's
 * own schema, as the gateway checks POST /customers) and the request as its typed message, which
 * the create use case then holds to the customer rules, both lists reported as one.
 */
export function customerRequestOf(
  body: Record<string, unknown>,
): { fields: CustomerFields; shapeErrors: FieldError[] } {
  // A row's members are strings and objects of strings (rowToCustomerBody): no list to wrap.
  return { fields: CustomerFields.fromPartial(body as CustomerFields), shapeErrors: customerCreateShapeErrors(body) };
}

/** The file's rows, or why the file as a whole cannot be imported. */
export function readCustomerCsv(content: Buffer): { rows: Row[] } | { error: ImportRowError } {
  let rows: Row[];
  try {
    rows = parse(content, {
      columns: (header: string[]) => header.map((h) => h.trim()),
      skip_empty_lines: true,
      bom: true,
      relax_column_count: true,
      max_record_size: 64 * 1024,
    });
  } catch (err) {
    return {
      error: {
        correlationId: 'file',
        code: 'INVALID_INPUT',
        message: `The file is not readable CSV: ${(err as Error).message.slice(0, 200)}`,
      },
    };
  }
  if (!rows.length) return { error: { correlationId: 'file', code: 'INVALID_INPUT', message: 'The file has no rows' } };
  const missing = REQUIRED_HEADERS.filter((h) => !(h in rows[0]));
  if (missing.length) {
    return {
      error: {
        correlationId: 'file',
        code: 'INVALID_INPUT',
        message: `The header lacks required columns: ${missing.join(', ')}`,
        fieldErrors: missing.map((field) => ({ field, message: 'column is required' })),
      },
    };
  }
  if (rows.length > MAX_IMPORT_ROWS) {
    return {
      error: { correlationId: 'file', code: 'INVALID_INPUT', message: `At most ${MAX_IMPORT_ROWS} rows per file` },
    };
  }
  return { rows };
}

export function correlationIdOf(row: Row, index: number): string {
  return value(row, 'platformCustomerId') ?? `row ${index + 1}`;
}
