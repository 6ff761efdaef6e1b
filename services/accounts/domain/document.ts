import type { DocumentFields } from '../../../gen/accounts/v1/documents';
import { AppError, type FieldError } from '../../../lib/errors';
import { defined } from './customer-fields';
import { incompleteFileProblem, mediaTypeOf } from './document-file';

export const DOCUMENT_SIDES = ['FRONT', 'BACK'] as const;
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

/** Why a document is refused (400 codes of the interface). */
export const REJECTION_REASONS = [
  'LOW_QUALITY',
  'DATA_MISMATCH',
  'EXPIRED',
  'SUSPECTED_FRAUD',
  'UNSUITABLE_DOCUMENT',
  'INCOMPLETE',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export interface DocumentMetadata {
  documentHolder?: string;
  documentType?: string;
  side?: string;
  country?: string;
  documentNumber?: string;
  issuingAuthority?: string;
}

export interface StoredDocument
  extends Required<Pick<DocumentMetadata, 'documentHolder' | 'documentType' | 'country'>> {
  id: string;
  platformId: string;
  side?: string;
  documentNumber?: string;
  issuingAuthority?: string;
  fileName: string;
  mediaType: string;
  size: number;
  sha256: string;
  /** Where the file is in document storage. */
  storageKey: string;
  createdAt: string;
  updatedAt: string;
  revision: number;
}

const CREATE_REQUIRED = ['documentHolder', 'documentType', 'country'] as const;

/** The file's rules (its type is read from its bytes): the problem, or the media type. */
function fileCheck(file: { fileName: string; content: Uint8Array }): { problem: string } | { mediaType: string } {
  if (file.content.length === 0) return { problem: 'must not be empty' };
  if (file.content.length > MAX_DOCUMENT_BYTES) return { problem: 'must be at most 10 MB' };
  const type = mediaTypeOf(file.content);
  if (!type) return { problem: 'must be a PDF, JPEG or PNG file (checked from its content)' };
  const incomplete = incompleteFileProblem(file.content, type);
  return incomplete ? { problem: incomplete } : { mediaType: type };
}

/**
 * An upload (`creating`) or replacement: the form's text members are shaped by the contract (checked
 * at the gateway); here the file's rules, and on upload the members a caller skipping the contract
 * left out. Every problem at once.
 */
export function validateDocumentMetadata(
  fields: DocumentFields | undefined,
  file: { fileName: string; content: Uint8Array } | undefined,
  creating: boolean,
): DocumentMetadata & { mediaType?: string } {
  const f = fields ?? {};
  const errors: FieldError[] = creating
    ? CREATE_REQUIRED.filter((k) => !f[k]).map((field) => ({ field, message: 'is required' }))
    : [];
  let mediaType: string | undefined;
  if (!file) {
    if (creating) errors.push({ field: 'file', message: 'is required' });
  } else {
    const checked = fileCheck(file);
    if ('problem' in checked) errors.push({ field: 'file', message: checked.problem });
    else mediaType = checked.mediaType;
    if (file.fileName.length === 0 || file.fileName.length > 255) {
      errors.push({ field: 'file', message: 'must have a file name of 1 to 255 characters' });
    }
  }
  if (errors.length) {
    throw AppError.invalidInput(creating ? 'Invalid document' : 'Invalid document replacement', errors);
  }
  const metadata = defined({
    documentHolder: creating ? f.documentHolder : undefined,
    documentType: f.documentType,
    side: f.side,
    country: f.country,
    documentNumber: f.documentNumber,
    issuingAuthority: f.issuingAuthority,
  });
  return { ...metadata, ...(mediaType ? { mediaType } : {}) };
}

/**
 * The sandbox's document check: a file whose name (without extension) is a rejection reason,
 * such as `LOW_QUALITY.pdf`, is refused with that reason; every other file is accepted.
 */
export function sandboxRejection(fileName: string): AppError | undefined {
  const stem = fileName.replace(/\.[^.]*$/, '').toUpperCase();
  const reason = REJECTION_REASONS.find((r) => r === stem);
  return reason ? new AppError(reason, `The document was refused: ${reason}`, { reason }) : undefined;
}
