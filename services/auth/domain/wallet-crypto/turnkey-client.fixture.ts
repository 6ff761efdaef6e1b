/**
 * The real Turnkey client libraries, used as the client in tests. Their typings carry
 * `/// <reference lib="dom" />`, which would add the DOM lib to the whole project's type
 * check, so they are loaded untyped and only the functions the tests call are declared.
 */
export interface TurnkeyKeyPair {
  privateKey: string;
  publicKey: string;
  publicKeyUncompressed: string;
}

interface TurnkeyCrypto {
  generateP256KeyPair(): TurnkeyKeyPair;
  getPublicKey(privateKey: Uint8Array | string, isCompressed?: boolean): Uint8Array;
  encryptOtpCodeToBundle(
    otpCode: string,
    otpEncryptionTargetBundle: string,
    publicKey: string,
    dangerouslyOverrideSignerPublicKey?: string,
  ): Promise<string>;
  decryptCredentialBundle(credentialBundle: string, embeddedKey: string): string;
  hpkeEncrypt(params: { plainTextBuf: Uint8Array; targetKeyBuf: Uint8Array }): Uint8Array;
  hpkeDecrypt(params: { ciphertextBuf: Uint8Array; encappedKeyBuf: Uint8Array; receiverPriv: string }): Uint8Array;
  formatHpkeBuf(encryptedBuf: Uint8Array): string;
}

interface Stamper {
  stamp(payload: string): Promise<{ stampHeaderName: string; stampHeaderValue: string }>;
}

interface ApiKeyStamperConstructor {
  new (config: { apiPublicKey: string; apiPrivateKey: string; runtimeOverride?: 'node' | 'purejs' }): Stamper;
}

export const turnkeyCrypto: TurnkeyCrypto = require('@turnkey/crypto');
export const ApiKeyStamper: ApiKeyStamperConstructor = require('@turnkey/api-key-stamper').ApiKeyStamper;
