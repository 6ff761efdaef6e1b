import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../../lib/config';
import { createDiskDocumentStorage } from './disk-document-storage';
import { documentStorageFromEnv } from './document-storage-settings';

const S3 = {
  S3_BUCKET: 'kyc',
  S3_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'secret',
};

describe('where document files go', () => {
  const opened: Array<{ close(): Promise<void> }> = [];
  const select = (env: NodeJS.ProcessEnv) => {
    const configured = documentStorageFromEnv(env);
    opened.push(configured);
    return configured.where;
  };
  afterAll(() => Promise.all(opened.map((o) => o.close())));

  test('with MongoDB: GridFS in the accounts database, beside the records (prefix followed, bucket settable)', () => {
    expect(select({ MONGODB_URI: 'mongodb://db.internal:27017' })).toBe('gridfs://grid_accounts/documents');
    expect(
      select({
        MONGODB_URI: 'mongodb+srv://cluster.example',
        MONGODB_DB_PREFIX: 'prod',
        DOCUMENTS_GRIDFS_BUCKET: 'kyc',
      }),
    ).toBe('gridfs://prod_accounts/kyc');
  });

  test('S3 when configured, whatever holds the records', () => {
    expect(select({ ...S3, MONGODB_URI: 'mongodb://db' })).toBe('s3://kyc/documents/');
    expect(select({ ...S3, DATA_DIR: '/srv/data' })).toBe('s3://kyc/documents/');
  });

  test('the embedded default: DATA_DIR/documents on disk; memory only where the records are in memory too', () => {
    expect(select({ DATA_DIR: '/srv/data' })).toBe(join('/srv/data', 'documents'));
    expect(select({ DATA_DIR: ':memory:' })).toBe('memory');
  });

  test('refuses to start with nowhere durable to put them, naming the setting', () => {
    expect(() => documentStorageFromEnv({})).toThrow(ConfigError);
    expect(() => documentStorageFromEnv({ DATA_DIR: '  ' })).toThrow(
      new RegExp(
        '^configuration error: DATA_DIR is required for KYC document files '
          + 'when neither MONGODB_URI \\(GridFS\\) nor S3_BUCKET is set',
      ),
    );
    expect(() => documentStorageFromEnv({ MONGODB_URI: 'postgres://db' })).toThrow(
      /MONGODB_URI must start with mongodb:\/\//,
    );
    expect(() => documentStorageFromEnv({ S3_BUCKET: 'kyc', MONGODB_URI: 'mongodb://db' })).toThrow(
      /S3_REGION is required/,
    );
  });
});

describe('disk storage shared by two processes (one volume)', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'documents-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test('each sees what the other wrote and removed, and a new instance (a restart) reads what was kept', async () => {
    const first = createDiskDocumentStorage(root);
    const second = createDiskDocumentStorage(root);
    await first.put('Platform-1/Document-a', Buffer.from('%PDF-1.7 a'));
    await second.put('Platform-1/Document-b', Buffer.from('%PDF-1.7 b'));
    expect(await second.get('Platform-1/Document-a')).toEqual(Buffer.from('%PDF-1.7 a'));
    expect(await first.get('Platform-1/Document-b')).toEqual(Buffer.from('%PDF-1.7 b'));
    await second.delete('Platform-1/Document-a');
    expect(await first.get('Platform-1/Document-a')).toBeNull();
    const restarted = createDiskDocumentStorage(root);
    expect(await restarted.get('Platform-1/Document-b')).toEqual(Buffer.from('%PDF-1.7 b'));
  });
});
