import { DOCUMENT_TYPES } from '../../../lib/contract/document-types';
import { AppError } from '../../../lib/errors';
import { idPattern } from '../../../lib/ids';
import { defined } from './customer-fields';
import { incompleteFileProblem, mediaTypeOf } from './document-file';
import { FieldReader, type JsonObject } from './field-reader';

export const DOCUMENT_SIDES = ['FRONT', 'BACK'] as const;
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

/** Why a document is refused (400 codes of the interface). */
export const REJECTION_REASONS = ['LOW_QUALITY', 'DATA_MISMATCH', 'EXPIRED', 'SUSPECTED_FRAUD', 'UNSUITABLE_DOCUMENT', 'INCOMPLETE'] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export interface DocumentMetadata {
  documentHolder?: string;
  documentType?: string;
  side?: string;
  country?: string;
  documentNumber?: string;
  issuingAuthority?: string;
}

export interface StoredDocument extends Required<Pick<DocumentMetadata, 'documentHolder' | 'documentType' | 'country'>> {
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

const HOLDER_PATTERN = `(${idPattern('Customer').slice(1, -1)})|(${idPattern('BeneficialOwner').slice(1, -1)})`;

/** The form's metadata (all required on upload; on replace only what is given changes), every problem at once. */
export function validateDocumentMetadata(fields: JsonObject, file: { fileName: string; content: Uint8Array } | undefined, creating: boolean): DocumentMetadata & { mediaType?: string } {
  const r = new FieldReader();
  const metadata = defined({
    documentHolder: creating ? r.string(fields, 'documentHolder', 'documentHolder', { required: true, pattern: new RegExp(`^(${HOLDER_PATTERN})$`) }) : undefined,
    documentType: r.enumValue(fields, 'documentType', 'documentType', DOCUMENT_TYPES, creating),
    side: r.enumValue(fields, 'side', 'side', DOCUMENT_SIDES),
    country: r.string(fields, 'country', 'country', { format: 'iso3166-1-alpha-2', required: creating }),
    documentNumber: r.string(fields, 'documentNumber', 'documentNumber', { minLength: 1, maxLength: 64 }),
    issuingAuthority: r.string(fields, 'issuingAuthority', 'issuingAuthority', { minLength: 1, maxLength: 255 }),
  });
  let mediaType: string | undefined;
  if (!file) {
    if (creating) r.fail('file', 'is required');
  } else if (file.content.length === 0) {
    r.fail('file', 'must not be empty');
  } else if (file.content.length > MAX_DOCUMENT_BYTES) {
    r.fail('file', 'must be at most 10 MB');
  } else {
    const type = mediaTypeOf(file.content);
    const incomplete = type && incompleteFileProblem(file.content, type);
    if (!type) r.fail('file', 'must be a PDF, JPEG or PNG file (checked from its content)');
    else if (incomplete) r.fail('file', incomplete);
    else mediaType = type;
  }
  if (file && (file.fileName.length === 0 || file.fileName.length > 255)) r.fail('file', 'must have a file name of 1 to 255 characters');
  r.throwIfInvalid(creating ? 'Invalid document' : 'Invalid document replacement');
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
