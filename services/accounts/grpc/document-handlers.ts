import {
  DocumentServiceService,
  type Document as DocumentMessage,
  type DocumentFile,
} from '../../../gen/accounts/v1/documents';
import { requirePlatform } from '../../../lib/grpc/call-context';
import { bindService } from '../../../lib/grpc/service-binding';
import { nextPageCursor } from '../../../lib/page-cursor';
import type { Documents, UploadedFile } from '../app/documents';
import type { StoredDocument } from '../domain/document';

/** Where the file is kept, its size and hash stay inside the service. */
export function documentMessage(d: StoredDocument): DocumentMessage {
  return {
    id: d.id,
    documentHolder: d.documentHolder,
    documentType: d.documentType,
    side: d.side,
    country: d.country,
    documentNumber: d.documentNumber,
    issuingAuthority: d.issuingAuthority,
    fileName: d.fileName,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

const fileOf = (
  f: DocumentFile | undefined,
): UploadedFile | undefined => (f ? { fileName: f.fileName, content: f.content } : undefined);

export function bindDocumentService(documents: Documents) {
  return bindService(DocumentServiceService, {
    async uploadDocument(req, ctx) {
      return {
        document: documentMessage(
          await documents.upload(requirePlatform(ctx), req.fields, fileOf(req.file), ctx.fieldErrors),
        ),
      };
    },
    async getDocument(req, ctx) {
      return { document: documentMessage(await documents.get(requirePlatform(ctx), req.id)) };
    },
    async listDocuments(req, ctx) {
      const page = await documents.list(requirePlatform(ctx), {
        holder: req.documentHolder,
        limit: req.limit,
        cursor: req.cursor,
      });
      return {
        documents: page.items.map(documentMessage),
        hasMore: page.hasMore,
        nextCursor: nextPageCursor(page.items, page.hasMore),
        totalCount: page.totalCount,
      };
    },
    async replaceDocument(req, ctx) {
      const replaced = await documents.replace({
        platformId: requirePlatform(ctx),
        id: req.id,
        fields: req.fields,
        file: fileOf(req.file),
        shapeErrors: ctx.fieldErrors,
      });
      return { document: documentMessage(replaced) };
    },
    async deleteDocument(req, ctx) {
      await documents.remove(requirePlatform(ctx), req.id);
      return {};
    },
    async getDocumentFile(req, ctx) {
      return documents.file(requirePlatform(ctx), req.id);
    },
  });
}
