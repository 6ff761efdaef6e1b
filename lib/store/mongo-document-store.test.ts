import { randomBytes } from 'node:crypto';
import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { describeDocumentStoreContract } from './document-store.contract';
import { createMongoDocumentStore } from './mongo-document-store';

/**
 * The store contract against a real MongoDB server. No server can be installed on the machines
 * this project is developed and tested on, so this suite is skipped there: operators run it with
 * `MONGODB_URI=mongodb://… npm run test:mongo` (it creates and drops databases of its own).
 */
const uri = process.env.MONGODB_URI?.trim();
const suite = uri ? describe : describe.skip;
const dbName = `store_contract_${randomBytes(4).toString('hex')}`;

suite(
  uri ? 'MongoDB at MONGODB_URI' : 'MongoDB (skipped: MONGODB_URI is not set; run MONGODB_URI=… npm run test:mongo)',
  () => {
    describeDocumentStoreContract(
      'mongodb',
      () => createMongoDocumentStore({ uri: uri!, dbName }),
      async () => {
        const client = await MongoClient.connect(uri!);
        try {
          await client.db(dbName).dropDatabase();
        } finally {
          await client.close();
        }
      },
    );

    describe('what production relies on beyond the contract', () => {
      const commands: CommandStartedEvent[] = [];
      const monitored = () => {
        const client = new MongoClient(uri!, { monitorCommands: true });
        client.on('commandStarted', (event) => commands.push(event));
        return client;
      };
      const ownDb = `${dbName}_production`;
      afterAll(async () => {
        const client = await MongoClient.connect(uri!);
        try {
          await client.db(ownDb).dropDatabase();
        } finally {
          await client.close();
        }
      });

      test(
        'no multi-document transactions: every change is one atomic '
          + 'single-document command (works on a standalone server too)',
        async () => {
          const store = await createMongoDocumentStore({ uri: uri!, dbName: ownDb, client: monitored() });
          try {
            const c = store.collection('balances');
            await c.createIndex({ keys: { owner: 1 }, unique: true });
            await c.insertOne({ _id: 'a', owner: 'x', amount: 100 });
            await c.updateOne({ _id: 'a', amount: { $gte: 10 } }, { $inc: { amount: -10 } });
            await c.findOneAndUpdate({ _id: 'a' }, { $set: { state: 'DONE' } }, { returnDocument: 'after' });
            await c.updateOne({ _id: 'b' }, { $setOnInsert: { owner: 'y', amount: 0 } }, { upsert: true });
            await c.deleteOne({ _id: 'b' });
            expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', owner: 'x', amount: 90, state: 'DONE' });
          } finally {
            await store.close();
          }
          const writes = commands.filter((e) =>
            ['insert', 'update', 'findAndModify', 'delete', 'createIndexes'].includes(e.commandName)
          );
          expect(writes.length).toBeGreaterThanOrEqual(6);
          for (const write of writes) {
            expect({
              command: write.commandName,
              startTransaction: write.command.startTransaction,
              autocommit: write.command.autocommit,
            })
              .toEqual({ command: write.commandName, startTransaction: undefined, autocommit: undefined });
          }
          expect(commands.map((e) => e.commandName)).not.toContain('commitTransaction');
        },
      );

      test('two clients (two replicas) racing on one guarded transition: exactly one wins', async () => {
        const [first, second] = await Promise.all([
          createMongoDocumentStore({ uri: uri!, dbName: ownDb }),
          createMongoDocumentStore({ uri: uri!, dbName: ownDb }),
        ]);
        try {
          await first.collection('claims').insertOne({ _id: 'job', owner: null });
          const claims = await Promise.all(
            Array.from(
              { length: 20 },
              (_, i) =>
                (i % 2 ? first : second).collection('claims').findOneAndUpdate({ _id: 'job', owner: null }, {
                  $set: { owner: `r${i}` },
                }, { returnDocument: 'after' }),
            ),
          );
          expect(claims.filter(Boolean)).toHaveLength(1);
        } finally {
          await Promise.all([first.close(), second.close()]);
        }
      });
    });
  },
);
