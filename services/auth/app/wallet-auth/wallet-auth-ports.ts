import type { EmbeddedWalletConfig } from '../../domain/wallet-auth/embedded-wallet-config';

/** What a platform configures for embedded wallets (with service-wide defaults). */
export interface PlatformWalletSettings {
  /** Sandbox: OTP code 000000 and nothing delivered; OIDC signatures not checked. */
  sandbox: boolean;
  config: EmbeddedWalletConfig;
  oidc: { issuers: string[]; audiences: string[] };
  passkey: { rpIds: string[]; origins: string[]; requireUserVerification: boolean };
}

export interface PlatformSettingsSource {
  settingsFor(platformId: string): Promise<PlatformWalletSettings>;
}

/** The notifications service's delivery port, as the OTP issuer needs it. */
export interface MessageSender {
  send(
    message: { channel: 'EMAIL' | 'SMS'; to: string; subject: string; body: string; idempotencyKey: string },
  ): Promise<void>;
}

/** The keys and limits of the wallet-auth use cases (from configuration). */
export interface WalletAuthSettings {
  enclavePrivateKey: string;
  storageKey: Uint8Array;
  sessionTtlMs: number;
  /** Minimum time between two OTPs of one credential. */
  otpReissueIntervalMs: number;
}
