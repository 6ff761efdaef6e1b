import { Router, type Request } from 'express';
import type { Document, DocumentFields } from '../../gen/accounts/v1/documents';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { readMultipart } from '../http/multipart-body';
import { listJson, RestRequestReader, withoutAbsent } from './rest-request';

const LIMITS = { fileField: 'file', maxFileBytes: 10 * 1024 * 1024, maxFields: 10, maxFieldBytes: 1024, words: '10 MB' };

/** The REST Document. */
export function documentJson(d: Document) {
  return withoutAbsent({
    id: d.id, documentHolder: d.documentHolder, documentType: d.documentType, side: d.side, country: d.country,
    documentNumber: d.documentNumber, issuingAuthority: d.issuingAuthority, fileName: d.fileName, createdAt: d.createdAt, updatedAt: d.updatedAt,
  });
}

async function documentForm(req: Request) {
  const body = await readMultipart(req, LIMITS);
  const f = body.fields;
  const fields: DocumentFields = {
    documentHolder: f.documentHolder, documentType: f.documentType, side: f.side, country: f.country,
    documentNumber: f.documentNumber, issuingAuthority: f.issuingAuthority,
  };
  const file = body.file && { fileName: body.file.fileName, declaredMediaType: body.file.mimeType, content: body.file.content };
  return { fields, file };
}

const documentId = (req: Request) => {
  const q = new RestRequestReader(req);
  const id = q.pathId('documentId', 'Document');
  q.done();
  return id;
};

/** Documents: uploads and replacements are multipart/form-data; files are served only to their platform. */
export function documentRoutes(peers: PeerClients): Router {
  const router = Router();

  router.post('/documents', async (req, res) => {
    const { document } = await peers.documents.uploadDocument(await documentForm(req), callContext(res));
    res.status(201).json(documentJson(document!));
  });

  router.get('/documents', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = { documentHolder: q.query('documentHolder'), limit: q.limit(), cursor: q.query('cursor') };
    q.done();
    const page = await peers.documents.listDocuments(request, callContext(res));
    res.status(200).json(listJson(page, page.documents, documentJson));
  });

  router.get('/documents/:documentId', async (req, res) => {
    const { document } = await peers.documents.getDocument({ id: documentId(req) }, callContext(res));
    res.status(200).json(documentJson(document!));
  });

  router.get('/documents/:documentId/file', async (req, res) => {
    const file = await peers.documents.getDocumentFile({ id: documentId(req) }, callContext(res));
    res.status(200).type(file.mediaType).set('Content-Disposition', 'attachment').set('Cache-Control', 'private, no-store')
      .set('X-Content-Type-Options', 'nosniff').send(Buffer.from(file.content));
  });

  router.put('/documents/:documentId', async (req, res) => {
    const id = documentId(req);
    const { document } = await peers.documents.replaceDocument({ id, ...(await documentForm(req)) }, callContext(res));
    res.status(200).json(documentJson(document!));
  });

  router.delete('/documents/:documentId', async (req, res) => {
    await peers.documents.deleteDocument({ id: documentId(req) }, callContext(res));
    res.status(204).end();
  });

  return router;
}
