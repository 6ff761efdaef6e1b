import { join } from 'node:path';
import { ConfigError, readConfig, setting } from '../../../lib/config';
import type { DocumentStorage } from '../app/document-storage';
import { createDiskDocumentStorage, createMemoryDocumentStorage } from './disk-document-storage';
import { createS3DocumentStorage } from './s3-document-storage';

const SCHEMA = {
  DATA_DIR: setting.optionalString(),
  /** With MONGODB_URI and no S3_BUCKET: the GridFS bucket of KYC document files, in the accounts database */
  DOCUMENTS_GRIDFS_BUCKET: setting.string('documents'),
  /** Set to keep document files in S3 (or an S3-compatible store) instead of DATA_DIR. */
  S3_BUCKET: setting.optionalString(),
  /** The bucket's region (required with S3_BUCKET unless AWS_REGION is set). */
  S3_REGION: setting.optionalString(),
  /** The region when S3_REGION is not set. */
  AWS_REGION: setting.optionalString(),
  /** Access key id for S3 (required with S3_BUCKET). */
  AWS_ACCESS_KEY_ID: setting.optionalString(),
  /** Secret access key for S3 (required with S3_BUCKET). */
  AWS_SECRET_ACCESS_KEY: setting.optionalString(),
  /** Session token of temporary S3 credentials. */
  AWS_SESSION_TOKEN: setting.optionalString(),
  /** Endpoint of an S3-compatible store (MinIO, …) instead of AWS. */
  S3_ENDPOINT: setting.optionalUrl('https:', 'http:'),
  /** Key prefix of document files in the bucket. */
  S3_PREFIX: setting.string('documents/'),
};

export interface ConfiguredDocumentStorage {
  storage: DocumentStorage;
  /** Where files go (no secrets): for the start log. */
  where: string;
  /** Releases what the storage holds open (the GridFS connection). */
  close(): Promise<void>;
}

/**
 * Document files go where the records are, durably: S3 when S3_BUCKET is set; otherwise GridFS in
 * the accounts database when MONGODB_URI is set; otherwise `<DATA_DIR>/documents` on disk. Memory
 * only for DATA_DIR=:memory:, where the records are in memory too. Anything else refuses to start.
 */
export function documentStorageFromEnv(env: NodeJS.ProcessEnv): ConfiguredDocumentStorage {
  const c = readConfig(SCHEMA, env);
  const nothingToClose = async () => undefined;
  if (c.S3_BUCKET) {
    const region = c.S3_REGION ?? c.AWS_REGION;
    if (!region) throw new ConfigError('S3_REGION', 'is required with S3_BUCKET (or AWS_REGION)');
    if (!c.AWS_ACCESS_KEY_ID || !c.AWS_SECRET_ACCESS_KEY) {
      throw new ConfigError('AWS_ACCESS_KEY_ID', 'and AWS_SECRET_ACCESS_KEY are required with S3_BUCKET');
    }
    return {
      storage: createS3DocumentStorage({
        bucket: c.S3_BUCKET,
        region,
        accessKeyId: c.AWS_ACCESS_KEY_ID,
        secretAccessKey: c.AWS_SECRET_ACCESS_KEY,
        sessionToken: c.AWS_SESSION_TOKEN,
        endpoint: c.S3_ENDPOINT,
        prefix: c.S3_PREFIX,
      }),
      where: `s3://${c.S3_BUCKET}/${c.S3_PREFIX}`,
      close: nothingToClose,
    };
  }
  const mongodbUri = env.MONGODB_URI?.trim();
  if (mongodbUri) {
    if (!/^mongodb(\+srv)?:\/\//.test(mongodbUri)) {
      throw new ConfigError('MONGODB_URI', 'must start with mongodb:// or mongodb+srv://');
    }
    // The accounts service's own database (lib/runtime/adapters.ts names it the same way).
    const dbName = `${env.MONGODB_DB_PREFIX?.trim() || 'grid'}_accounts`;
    // Connects on first use; the accounts store has connected to the same server before any upload.
    // The driver is loaded only here: the embedded mode's start does not pay for it.
    const { MongoClient } = require('mongodb') as typeof import('mongodb');
    const { createGridFsDocumentStorage } = require(
      './gridfs-document-storage',
    ) as typeof import('./gridfs-document-storage');
    const client = new MongoClient(mongodbUri);
    return {
      storage: createGridFsDocumentStorage(client.db(dbName), c.DOCUMENTS_GRIDFS_BUCKET),
      where: `gridfs://${dbName}/${c.DOCUMENTS_GRIDFS_BUCKET}`,
      close: () => client.close(),
    };
  }
  if (c.DATA_DIR === ':memory:') {
    return { storage: createMemoryDocumentStorage(), where: 'memory', close: nothingToClose };
  }
  if (!c.DATA_DIR) {
    throw new ConfigError(
      'DATA_DIR',
      'is required for KYC document files when neither MONGODB_URI '
        + '(GridFS) nor S3_BUCKET is set: refusing to keep them in memory',
    );
  }
  const root = join(c.DATA_DIR, 'documents');
  return { storage: createDiskDocumentStorage(root), where: root, close: nothingToClose };
}
