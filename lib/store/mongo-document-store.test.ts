import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { describeDocumentStoreContract } from './document-store.contract';
import { createMongoDocumentStore } from './mongo-document-store';

const uri = process.env.MONGODB_URI;

if (uri) {
  const dbName = `store_contract_${randomBytes(4).toString('hex')}`;
  describeDocumentStoreContract(
    'mongodb',
    () => createMongoDocumentStore({ uri, dbName }),
    async () => {
      const client = await MongoClient.connect(uri);
      try {
        await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
      }
    },
  );
} else {
  test('MongoDB contract runs when MONGODB_URI is set', () => {
    expect(process.env.MONGODB_URI).toBeUndefined();
  });
}
