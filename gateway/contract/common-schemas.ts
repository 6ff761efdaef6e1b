import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_CODES } from '../../lib/errors';
import { httpStatusOf } from '../http/http-status';
import { ClosedObject, named } from './schema-kit';

export { Currency, CurrencyAmount } from '../../lib/contract/account-records';

export const FieldConstraint = named(
  'FieldConstraint',
  ClosedObject({
    format: Type.Optional(Type.String()),
    pattern: Type.Optional(Type.String()),
    enum: Type.Optional(Type.Array(Type.String())),
    minLength: Type.Optional(Type.Integer({ minimum: 0 })),
    maxLength: Type.Optional(Type.Integer({ minimum: 0 })),
  }, { description: 'The rule an invalid field broke, when it is one of these' }),
);

export const FieldError = named(
  'FieldError',
  ClosedObject({
    field: Type.String({ description: 'Dot path of the member, with [i] for list items' }),
    message: Type.Optional(Type.String()),
    constraint: Type.Optional(FieldConstraint),
  }),
);

/** The codes answered with one HTTP status, from the gateway's one code → status table. */
export function codesOfStatus(status: number): string[] {
  return ERROR_CODES.filter((code) => httpStatusOf(code) === status);
}

const errorSchemas = new Map<number, TSchema>();

/** The error envelope for one HTTP status: `code` is one of the codes that status carries. */
export function ErrorEnvelope(status: number): TSchema {
  let schema = errorSchemas.get(status);
  if (!schema) {
    schema = named(
      `Error${status}`,
      Type.Object({
        status: Type.Literal(status),
        code: Type.Unsafe<string>({ type: 'string', enum: codesOfStatus(status) }),
        message: Type.String(),
        details: Type.Optional(Type.Object({
          errors: Type.Optional(Type.Array(FieldError, { description: 'Every invalid field (INVALID_INPUT)' })),
          omittedErrors: Type.Optional(
            Type.Integer({ minimum: 1, description: 'Invalid fields beyond the listed ones' }),
          ),
        }, { description: 'More about the error; free-form beyond `errors`' })),
      }, { additionalProperties: false, description: `Error answered with HTTP ${status}` }),
    );
    errorSchemas.set(status, schema);
  }
  return schema;
}

/** A page of a list, with the cursor of the next page when there is one. */
export function Page<T extends TSchema>(name: string, item: T) {
  return named(
    name,
    ClosedObject({
      data: Type.Array(item),
      hasMore: Type.Boolean(),
      nextCursor: Type.Optional(Type.String({ description: 'Pass as `cursor` to read the next page' })),
      totalCount: Type.Optional(Type.Integer({ minimum: 0 })),
    }),
  );
}

/** A list answered whole. */
export function List<T extends TSchema>(name: string, item: T) {
  return named(name, ClosedObject({ data: Type.Array(item) }));
}

/** The query parameters of a paginated list. */
export const pageQuery = {
  limit: Type.Optional(Type.String({ description: 'Page size, 1 to 100 (default 20)' })),
  cursor: Type.Optional(Type.String({ description: 'The `nextCursor` of the previous page' })),
};

/** A signed-retry endpoint's first answer: the payload the wallet must sign (202). */
export const SignedRetryChallenge = named(
  'SignedRetryChallenge',
  ClosedObject({
    type: Type.Optional(Type.String()),
    payloadToSign: Type.String(),
    requestId: Type.String({ description: 'Send back as the Request-Id header with the signed retry' }),
    expiresAt: Type.String({ format: 'date-time' }),
  }),
);

/** A signed retry whose effect is still being applied (200). */
export const Processing = named(
  'Processing',
  ClosedObject({ status: Type.Literal('PROCESSING'), message: Type.String() }),
);
