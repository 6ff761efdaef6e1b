import { join } from 'node:path';
import { ConfigError, readConfig, setting } from '../../../lib/config';
import type { DocumentStorage } from '../app/document-storage';
import { createDiskDocumentStorage, createMemoryDocumentStorage } from './disk-document-storage';
import { createS3DocumentStorage } from './s3-document-storage';

const SCHEMA = {
  DATA_DIR: setting.optionalString(),
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

/** S3 when S3_BUCKET is set; otherwise `<DATA_DIR>/documents` on disk (memory for DATA_DIR=:memory:). */
export function documentStorageFromEnv(env: NodeJS.ProcessEnv): { storage: DocumentStorage; where: string } {
  const c = readConfig(SCHEMA, env);
  if (c.S3_BUCKET) {
    const region = c.S3_REGION ?? c.AWS_REGION;
    if (!region) throw new ConfigError('S3_REGION', 'is required with S3_BUCKET (or AWS_REGION)');
    if (!c.AWS_ACCESS_KEY_ID || !c.AWS_SECRET_ACCESS_KEY) throw new ConfigError('AWS_ACCESS_KEY_ID', 'and AWS_SECRET_ACCESS_KEY are required with S3_BUCKET');
    return {
      storage: createS3DocumentStorage({
        bucket: c.S3_BUCKET, region, accessKeyId: c.AWS_ACCESS_KEY_ID, secretAccessKey: c.AWS_SECRET_ACCESS_KEY,
        sessionToken: c.AWS_SESSION_TOKEN, endpoint: c.S3_ENDPOINT, prefix: c.S3_PREFIX,
      }),
      where: `s3://${c.S3_BUCKET}/${c.S3_PREFIX}`,
    };
  }
  if (!c.DATA_DIR || c.DATA_DIR === ':memory:') return { storage: createMemoryDocumentStorage(), where: 'memory' };
  const root = join(c.DATA_DIR, 'documents');
  return { storage: createDiskDocumentStorage(root), where: root };
}
