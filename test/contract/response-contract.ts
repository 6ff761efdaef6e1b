import { API_VERSION } from '../../gateway/contract/api-version';
import { ErrorEnvelope } from '../../gateway/contract/common-schemas';
import { createContractValidator, type ErrorObject } from '../../gateway/contract/contract-ajv';
import { findOperation } from '../../gateway/contract/operation-registry';

const validate = createContractValidator();

/** A response that does not match our OpenAPI document. */
export class ContractViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContractViolation';
  }
}

function describe(errors: ErrorObject[]): string {
  return errors.slice(0, 12).map((e) =>
    `  ${e.instancePath || '(body)'} ${e.message}${
      e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''
    }`
  ).join('\n');
}

/** One request's method and URL, and the gateway's answer to it. */
export interface GatewayAnswer {
  method: string;
  url: string;
  status: number;
  body: unknown;
  contentType: string | null;
}

/**
 * Checks one gateway answer against the document: the status must be documented for the operation
 * and the body must match its schema. A request no operation serves must answer the error envelope.
 * Throws ContractViolation naming operation, status and what did not match.
 */
export function checkResponse({ method, url, status, body, contentType }: GatewayAnswer): void {
  const path = new URL(url, 'http://gateway').pathname;
  const op = findOperation(method, path);
  const name = op
    ? `${op.operationId} (${method.toUpperCase()} ${op.path})`
    : `${method.toUpperCase()} ${path} (no operation)`;
  const schema = op ? op.responses[status] : ErrorEnvelope(status);
  if (schema === undefined) {
    throw new ContractViolation(
      `${name} answered ${status}, which the OpenAPI document does not list for it (documented: ${
        Object.keys(op!.responses).join(', ')
      })\n  body: ${JSON.stringify(body)?.slice(0, 500)}`,
    );
  }
  if (schema === null) {
    if (body !== undefined && body !== '') {
      throw new ContractViolation(`${name} answered ${status} with a body, documented without one`);
    }
    return;
  }
  if (!contentType?.startsWith('application/json')) {
    throw new ContractViolation(`${name} answered ${status} with Content-Type ${contentType}, not JSON`);
  }
  const errors = validate(schema, body);
  if (errors.length) {
    throw new ContractViolation(
      `${name} answered ${status} with a body that does not match the OpenAPI document:\n${describe(errors)}\n  body: ${
        JSON.stringify(body)?.slice(0, 800)
      }`,
    );
  }
}

/** The full path of an API request made relative to the version prefix. */
export const apiUrl = (path: string) => `/${API_VERSION}${path}`;
