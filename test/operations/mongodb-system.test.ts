import { p256 } from '@noble/curves/nist';
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { SERVICE_NAMES } from '../../lib/runtime/service-module';
import { createCustomer } from '../http/kyc-fixtures';
import { basicAuthHeader, startTestSystem, type TestSystem } from '../system-harness';

/**
 * The whole system on a real MongoDB server, as production runs it: indexes created at every
 * start (a second start over existing ones succeeds and changes nothing), KYC document files in
 * GridFS beside their records, shared by two replicas and kept across a restart. Skipped without
 * MONGODB_URI: no server can be installed where this project is developed and tested; operators
 * run it with `MONGODB_URI=… npm run test:mongo`. It uses databases of its own and drops them.
 */
const uri = process.env.MONGODB_URI?.trim();
const suite = uri ? describe : describe.skip;
jest.setTimeout(120_000);

const prefix = `systest_${randomBytes(4).toString('hex')}`;
const env = {
  MONGODB_URI: uri,
  MONGODB_DB_PREFIX: prefix,
  DATA_DIR: '',
  API_SECRET_PEPPER: randomBytes(32).toString('hex'),
  ACCOUNTS_PII_KEY: randomBytes(32).toString('hex'),
  WALLET_STORAGE_KEY: randomBytes(32).toString('hex'),
  WALLET_ENCLAVE_PRIVATE_KEY: Buffer.from(p256.utils.randomSecretKey()).toString('hex'),
  WEBHOOK_SIGNING_PRIVATE_KEY: Buffer.from(p256.utils.randomSecretKey()).toString('hex'),
  STABLECOIN_SECRET_KEY: randomBytes(32).toString('hex'),
  CARDS_DATA_KEY: randomBytes(32).toString('hex'),
};
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(300 * 1024), Buffer.from('\n%%EOF\n')]);

async function indexesOfEveryDatabase(client: MongoClient): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const service of SERVICE_NAMES) {
    const db = client.db(`${prefix}_${service.replace(/-/g, '_')}`);
    for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
      out[`${db.databaseName}.${name}`] = (await db.collection(name).indexes()).map(({ v: _v, ...index }) => index);
    }
  }
  return out;
}

async function fileOf(sys: TestSystem, id: string) {
  const res = await fetch(`${sys.baseUrl}/documents/${id}/file`, {
    headers: { authorization: basicAuthHeader(sys.sandbox.tokenId, sys.sandbox.clientSecret) },
  });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

suite(
  uri
    ? 'the system on MongoDB at MONGODB_URI'
    : 'the system on MongoDB (skipped: MONGODB_URI is not set; run MONGODB_URI=… npm run test:mongo)',
  () => {
    let client: MongoClient;
    beforeAll(async () => {
      client = await MongoClient.connect(uri!);
    });
    afterAll(async () => {
      for (const service of SERVICE_NAMES) await client.db(`${prefix}_${service.replace(/-/g, '_')}`).dropDatabase();
      await client.close();
    });

    test('indexes at every start; documents in GridFS, seen by a second replica and kept over a restart', async () => {
      const first = await startTestSystem({ env });
      let documentId: string;
      try {
        const customer = await createCustomer(first, { fullName: 'Mongo Holder' });
        const form = new FormData();
        for (
          const [k, v] of Object.entries({
            documentHolder: customer.id,
            documentType: 'PASSPORT',
            country: 'US',
            side: 'FRONT',
          })
        ) form.append(k, v);
        form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'passport.pdf');
        const uploaded = await first.api('/documents', { method: 'POST', body: form });
        expect(uploaded.status).toBe(201);
        documentId = uploaded.body.id;
        expect(await client.db(`${prefix}_accounts`).collection('documents.files').countDocuments({})).toBe(1);

        const second = await startTestSystem({ env }); // a second replica of everything, on the same databases
        try {
          expect(await fileOf(second, documentId)).toEqual({ status: 200, bytes: PDF });
        } finally {
          await second.stop();
        }
      } finally {
        await first.stop();
      }

      const indexes = await indexesOfEveryDatabase(client);
      const secondary = Object.values(indexes).flat().filter((index) => (index as { name: string }).name !== '_id_');
      expect(secondary.length).toBeGreaterThan(0);

      const restarted = await startTestSystem({ env });
      try {
        expect(await fileOf(restarted, documentId)).toEqual({ status: 200, bytes: PDF });
      } finally {
        await restarted.stop();
      }
      // A start over existing indexes neither fails nor adds or changes any.
      expect(await indexesOfEveryDatabase(client)).toEqual(indexes);
    });
  },
);
