import { status } from '@grpc/grpc-js';
import { ERROR_CODE_TABLE } from './error-codes';
import { AppError, ERROR_CODES, isErrorCode } from './errors';
import { grpcStatusOf, toStatusObject } from './grpc/error-status';

test.each(ERROR_CODES.map((code) => [code]))('%s has an error HTTP status and a gRPC status other than OK', (code) => {
  const { grpc, http } = ERROR_CODE_TABLE[code];
  expect(Number.isInteger(http) && http >= 400 && http <= 599).toBe(true);
  expect(typeof status[grpc]).toBe('number');
  expect(status[grpc]).not.toBe(status.OK);
});

test("the codes are the table's keys, each once", () => {
  expect(ERROR_CODES).toEqual(Object.keys(ERROR_CODE_TABLE));
  expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  expect(ERROR_CODES.length).toBeGreaterThan(90);
});

test('the gRPC mapping reads the table for every code', () => {
  for (const code of ERROR_CODES) {
    expect(grpcStatusOf(code)).toBe(status[ERROR_CODE_TABLE[code].grpc]);
    expect(toStatusObject(new AppError(code, 'm')).code).toBe(status[ERROR_CODE_TABLE[code].grpc]);
  }
});

test('a code outside the table is no code', () => {
  expect(['NO_SUCH_CODE', 'toString', 'constructor', '', undefined].map(isErrorCode)).toEqual([
    false,
    false,
    false,
    false,
    false,
  ]);
  // @ts-expect-error a code without an entry in the table does not type-check
  expect(() => new AppError('NO_SUCH_CODE', 'm')).not.toThrow();
});
