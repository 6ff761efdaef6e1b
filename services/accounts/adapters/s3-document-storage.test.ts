import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createS3DocumentStorage } from './s3-document-storage';

/**
 * Against a toy S3-compatible endpoint on loopback (no S3 exists on these machines): the adapter
 * addresses objects path-style, signs every request (SigV4 header shape, payload hash) and maps
 * the answers. Whether AWS accepts the signature is not proven here.
 */
test('put, get and delete an object path-style with signed requests', async () => {
  const objects = new Map<string, Buffer>();
  const seen: { method: string; url: string; authorization: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method!, url: req.url!, authorization: String(req.headers.authorization) });
      if (req.headers['x-amz-content-sha256'] !== createHash('sha256').update(body).digest('hex')) {
        return void res.writeHead(400).end();
      }
      if (req.method === 'PUT') objects.set(req.url!, body);
      if (req.method === 'DELETE') objects.delete(req.url!);
      if (req.method === 'GET' && !objects.has(req.url!)) return void res.writeHead(404).end();
      res.writeHead(req.method === 'DELETE' ? 204 : 200).end(req.method === 'GET' ? objects.get(req.url!) : undefined);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const storage = createS3DocumentStorage({
      bucket: 'docs',
      region: 'eu-west-1',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'secret',
      endpoint,
      prefix: 'documents/',
    });
    await storage.put('abc/Document-1', Buffer.from('%PDF-1.7 hello'));
    expect(await storage.get('abc/Document-1')).toEqual(Buffer.from('%PDF-1.7 hello'));
    await storage.delete('abc/Document-1');
    expect(await storage.get('abc/Document-1')).toBeNull();
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'PUT /docs/documents/abc/Document-1',
      'GET /docs/documents/abc/Document-1',
      'DELETE /docs/documents/abc/Document-1',
      'GET /docs/documents/abc/Document-1',
    ]);
    for (const s of seen) {
      expect(s.authorization).toMatch(
        new RegExp(
          [
            '^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/\\d{8}/eu-west-1/s3/aws4_request, ',
            'SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$',
          ].join(''),
        ),
      );
    }
  } finally {
    server.close();
  }
});
