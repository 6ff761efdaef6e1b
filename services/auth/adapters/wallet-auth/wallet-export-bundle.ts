import { hpkeSeal } from '../../domain/wallet-crypto/hpke';
import { loadEnclaveSigningKey } from '../../domain/wallet-crypto/enclave-key';

export const EXPORT_BUNDLE_VERSION = 'v1.0.0';

/**
 * Wallet secret sealed to the client's key, in the export-bundle shape the reference documents
 * (and `@turnkey/crypto`'s decryptExportBundle opens): JSON {version, data, dataSignature,
 * enclaveQuorumPublic}, `data` = hex of JSON {encappedPublic, ciphertext, organizationId},
 * signed by the enclave key. `organizationId` is the internal account id.
 */
export async function sealWalletExport(input: {
  secret: Uint8Array;
  clientPublicKey: string;
  accountId: string;
  enclavePrivateKey: string;
}): Promise<string> {
  const { encappedPublic, ciphertext } = await hpkeSeal({
    plaintext: input.secret,
    recipientPublicKey: input.clientPublicKey,
  });
  const data = Buffer.from(
    JSON.stringify({
      encappedPublic: Buffer.from(encappedPublic).toString('hex'),
      ciphertext: Buffer.from(ciphertext).toString('hex'),
      organizationId: input.accountId,
    }),
    'utf8',
  );
  const enclave = loadEnclaveSigningKey(input.enclavePrivateKey);
  return JSON.stringify({
    version: EXPORT_BUNDLE_VERSION,
    data: data.toString('hex'),
    dataSignature: enclave.sign(data),
    enclaveQuorumPublic: enclave.publicKey,
  });
}
