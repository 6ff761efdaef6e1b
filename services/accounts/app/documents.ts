import { createHash, randomBytes } from 'node:crypto';
import { AppError, type FieldError } from '../../../lib/errors';
import { newId } from '../../../lib/ids';
import { pageQuery } from '../../../lib/page-cursor';
import { sandboxRejection, validateDocumentMetadata, type StoredDocument } from '../domain/document';
import type { DocumentFields } from '../../../gen/accounts/v1/documents';
import { validateAlongside } from '../../../lib/field-error-list';
import type { AccountsStore, Page } from './accounts-store';
import type { DocumentStorage } from './document-storage';

export interface UploadedFile {
  fileName: string;
  content: Uint8Array;
}

/** A document's new metadata and file (either may be absent), and the form members the contract refused. */
export interface DocumentReplacement {
  platformId: string;
  id: string;
  fields: DocumentFields | undefined;
  file: UploadedFile | undefined;
  shapeErrors?: FieldError[];
}

export interface Documents {
  /**
   * `shapeErrors`: the form members the contract refused (and left out), reported with the file's problems in one list.
   */
  upload(
    platformId: string,
    fields: DocumentFields | undefined,
    file: UploadedFile | undefined,
    shapeErrors?: FieldError[],
  ): Promise<StoredDocument>;
  get(platformId: string, id: string): Promise<StoredDocument>;
  list(platformId: string, query: { holder?: string; limit: number; cursor?: string }): Promise<Page<StoredDocument>>;
  replace(replacement: DocumentReplacement): Promise<StoredDocument>;
  remove(platformId: string, id: string): Promise<void>;
  file(platformId: string, id: string): Promise<{ fileName: string; mediaType: string; content: Buffer }>;
}

/**
 * Verification documents. The file is stored first under a fresh key, then the record naming it;
 * a refused or failed write removes the file again, so nothing half-stored is ever served. A
 * replaced or deleted document's old file is removed after its record changed.
 */
export function createDocuments(
  deps: { store: AccountsStore; storage: DocumentStorage; sandbox: boolean; clock: () => Date },
): Documents {
  const { store, storage } = deps;
  const keyOf = (platformId: string, id: string) =>
    `${createHash('sha256').update(platformId).digest('hex').slice(0, 16)}/${id.slice('Document:'.length)}-${
      randomBytes(6).toString('hex')
    }`;

  const get = async (platformId: string, id: string) => {
    const doc = await store.documents.find(platformId, id);
    if (!doc) throw AppError.notFound('Document');
    return doc;
  };

  const assertHolder = async (platformId: string, holder: string) => {
    if (holder.startsWith('Customer:')) {
      const customer = await store.customers.find(platformId, holder);
      if (!customer || customer.isDeleted) throw AppError.notFound('Customer', 'USER_NOT_FOUND');
    } else if (!(await store.beneficialOwners.find(platformId, holder))) {
      throw AppError.notFound('Beneficial owner');
    }
  };

  const accepted = (file: UploadedFile) => {
    const refusal = deps.sandbox ? sandboxRejection(file.fileName) : undefined;
    if (refusal) throw refusal;
  };

  /** Stores the file, runs `write`; removes the file again when `write` does not succeed. */
  const withStoredFile = async <T>(key: string, file: UploadedFile, write: () => Promise<T>): Promise<T> => {
    await storage.put(key, file.content);
    try {
      return await write();
    } catch (err) {
      await storage.delete(key).catch(() => undefined);
      throw err;
    }
  };

  const fileMembers = (file: UploadedFile, mediaType: string, key: string) => ({
    fileName: file.fileName,
    mediaType,
    size: file.content.length,
    sha256: createHash('sha256').update(file.content).digest('hex'),
    storageKey: key,
  });

  return {
    async upload(platformId, fields, file, shapeErrors) {
      const meta = validateAlongside(shapeErrors, () => validateDocumentMetadata(fields, file, true));
      await assertHolder(platformId, meta.documentHolder!);
      accepted(file!);
      const id = newId('Document');
      const now = deps.clock().toISOString();
      const key = keyOf(platformId, id);
      const doc: StoredDocument = {
        id,
        platformId,
        documentHolder: meta.documentHolder!,
        documentType: meta.documentType!,
        country: meta.country!,
        ...(meta.side ? { side: meta.side } : {}),
        ...(meta.documentNumber ? { documentNumber: meta.documentNumber } : {}),
        ...(meta.issuingAuthority ? { issuingAuthority: meta.issuingAuthority } : {}),
        ...fileMembers(file!, meta.mediaType!, key),
        createdAt: now,
        updatedAt: now,
        revision: 1,
      };
      await withStoredFile(key, file!, () => store.documents.insert(doc));
      return doc;
    },

    get,

    list(platformId, query) {
      return store.documents.list(platformId, query.holder, pageQuery(query.limit, query.cursor));
    },

    async replace({ platformId, id, fields, file, shapeErrors }) {
      const current = await get(platformId, id);
      const meta = validateAlongside(shapeErrors, () => validateDocumentMetadata(fields, file, false));
      if (file) accepted(file);
      const { mediaType, documentHolder: _fixed, ...changes } = meta;
      const next: StoredDocument = {
        ...current,
        ...changes,
        updatedAt: deps.clock().toISOString(),
        revision: current.revision + 1,
      };
      const write = async () => {
        if (!(await store.documents.replace(next))) {
          throw new AppError('CONFLICT', 'The document was changed by another request; retry');
        }
      };
      if (!file) {
        await write();
        return next;
      }
      const key = keyOf(platformId, id);
      Object.assign(next, fileMembers(file, mediaType!, key));
      await withStoredFile(key, file, write);
      await storage.delete(current.storageKey).catch(() => undefined);
      return next;
    },

    async remove(platformId, id) {
      const current = await get(platformId, id);
      if (!(await store.documents.remove(platformId, id, current.revision))) {
        throw new AppError('CONFLICT', 'The document was changed by another request; retry');
      }
      await storage.delete(current.storageKey).catch(() => undefined);
    },

    async file(platformId, id) {
      const doc = await get(platformId, id);
      const content = await storage.get(doc.storageKey);
      if (!content) throw AppError.notFound('Document file');
      return { fileName: doc.fileName, mediaType: doc.mediaType, content };
    },
  };
}
