import { randomBytes } from 'node:crypto';
import { AppError, type FieldError } from '../../../lib/errors';

/** What a token may do: VIEW reads, TRANSACT moves money, MANAGE changes configuration, tokens and customers. */
export const PERMISSIONS = ['VIEW', 'TRANSACT', 'MANAGE'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The sandbox bootstrap token and tokens stored before permissions existed hold every permission. */
export const ALL_PERMISSIONS: readonly Permission[] = PERMISSIONS;
export const SANDBOX_TOKEN_NAME = 'Sandbox token';

export interface ApiTokenRecord {
  /** `Token:<uuid>`, the REST id. */
  id: string;
  /** The HTTP Basic user name. */
  clientId: string;
  platformId: string;
  name: string;
  permissions: Permission[];
  secretHash: string;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
}

export interface NewApiToken {
  name: string;
  permissions: Permission[];
}

const isPermission = (value: unknown): value is Permission => (PERMISSIONS as readonly unknown[]).includes(value);

/** The create request: a name of 1 to 255 characters and at least one permission, each once. */
export function parseNewApiToken(input: { name?: string; permissions: string[] }): NewApiToken {
  const errors: FieldError[] = [];
  const name = input.name?.trim() ?? '';
  if (!input.name) errors.push({ field: 'name', message: 'is required' });
  else if (!name || name.length > 255) errors.push({ field: 'name', message: 'must be between 1 and 255 characters' });
  if (!input.permissions.length) errors.push({ field: 'permissions', message: 'must name at least one permission' });
  input.permissions.forEach((p, i) => {
    if (!isPermission(p)) {
      errors.push({
        field: `permissions[${i}]`,
        message: `must be one of ${PERMISSIONS.join(', ')}`,
        constraint: { enum: [...PERMISSIONS] },
      });
    }
  });
  if (errors.length) throw AppError.invalidInput('Invalid API token', errors);
  return { name, permissions: PERMISSIONS.filter((p) => input.permissions.includes(p)) };
}

/** 32 hex characters, like the reference's client ids; never contains the Basic separator `:`. */
export function newClientId(): string {
  return randomBytes(16).toString('hex');
}
