import { type Request, type Response } from 'express';
import type { TSchema } from '@sinclair/typebox';
import type { Document, DocumentFields } from '../../gen/accounts/v1/documents';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { fieldErrors, inMemberOrder } from '../../lib/contract/contract-errors';
import { contractJson } from '../../lib/contract/contract-json';
import { createContractValidator } from '../contract/contract-ajv';
import { Document as DocumentSchema } from '../contract/kyc-contract';
import { findOperation } from '../contract/operation-registry';
import { callContext } from '../http/call-context';
import { deferShapeErrors } from '../http/shape-errors';
import { readMultipart } from '../http/multipart-body';
import { listJson, RestRequestReader } from './rest-request';
import { OperationHandlers } from './operation-routes';

const LIMITS = {
  fileField: 'file',
  maxFileBytes: 10 * 1024 * 1024,
  maxFields: 10,
  maxFieldBytes: 1024,
  words: '10 MB',
};

/** The REST Document. */
export const documentJson = (d: Document) => contractJson(DocumentSchema, d);

const validate = createContractValidator();

/**
 * The form's members checked against the operation's schema, as JSON bodies are checked by
 * request-validation.ts (a multipart body is read here, after it): the refused members are left
 * out and their errors go along to the service, which answers them with the file's problems.
 */
function checkedForm(
  req: Request,
  res: Response,
  form: Record<string, string>,
  hasFile: boolean,
): Record<string, string> {
  const op = findOperation(req.method, req.baseUrl + req.path);
  const schema = op?.body?.schema as TSchema | undefined;
  if (!schema) return form;
  const members = { ...form };
  const errors = inMemberOrder(
    fieldErrors(validate(schema, hasFile ? { ...members, file: '' } : members)),
    schema as unknown as Record<string, unknown>,
  );
  if (errors.length) deferShapeErrors(res, members, errors);
  return members;
}

async function documentForm(req: Request, res: Response) {
  const body = await readMultipart(req, LIMITS);
  const f = checkedForm(req, res, body.fields, body.file !== undefined);
  const fields: DocumentFields = {
    documentHolder: f.documentHolder,
    documentType: f.documentType,
    side: f.side,
    country: f.country,
    documentNumber: f.documentNumber,
    issuingAuthority: f.issuingAuthority,
  };
  const file = body.file
    && { fileName: body.file.fileName, declaredMediaType: body.file.mimeType, content: body.file.content };
  return { fields, file };
}

const documentId = (req: Request) => {
  const q = new RestRequestReader(req);
  const id = q.pathId('documentId', 'Document');
  q.done();
  return id;
};

/** Documents: uploads and replacements are multipart/form-data; files are served only to their platform. */
export function documentRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('uploadDocument', async (req, res) => {
    const { document } = await peers.documents.uploadDocument(await documentForm(req, res), callContext(res));
    res.status(201).json(documentJson(document!));
  });

  routes.on('listDocuments', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = { documentHolder: q.query('documentHolder'), limit: q.limit(), cursor: q.query('cursor') };
    q.done();
    const page = await peers.documents.listDocuments(request, callContext(res));
    res.status(200).json(listJson(page, page.documents, documentJson));
  });

  routes.on('getDocument', async (req, res) => {
    const { document } = await peers.documents.getDocument({ id: documentId(req) }, callContext(res));
    res.status(200).json(documentJson(document!));
  });

  routes.on('getDocumentFile', async (req, res) => {
    const file = await peers.documents.getDocumentFile({ id: documentId(req) }, callContext(res));
    res.status(200).type(file.mediaType).set('Content-Disposition', 'attachment').set(
      'Cache-Control',
      'private, no-store',
    )
      .set('X-Content-Type-Options', 'nosniff').send(Buffer.from(file.content));
  });

  routes.on('replaceDocument', async (req, res) => {
    const id = documentId(req);
    const { document } = await peers.documents.replaceDocument(
      { id, ...(await documentForm(req, res)) },
      callContext(res),
    );
    res.status(200).json(documentJson(document!));
  });

  routes.on('deleteDocument', async (req, res) => {
    await peers.documents.deleteDocument({ id: documentId(req) }, callContext(res));
    res.status(204).end();
  });

  return routes;
}
