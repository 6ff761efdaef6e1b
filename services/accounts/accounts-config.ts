import { ConfigError, readConfig, readRunMode, setting } from '../../lib/config';
import { CURRENCY_CODES } from './domain/currencies';
import type { EndUserTermsCatalogue } from './domain/end-user-terms';

/** Placeholders that only make sense in the sandbox: customers would be shown them. */
const SANDBOX_HOST = /(^|\.)sandbox\.local$/i;

const SCHEMA = {
  /** Currencies a new platform supports (comma-separated); customer internal accounts open in these. */
  ACCOUNTS_PLATFORM_CURRENCIES: setting.string('USD,EUR,MXN,BRL,INR,USDC,BTC'),
  /** Domain of generated customer UMA addresses; GRID_MODE=production refuses to start without a domain of your own. */
  ACCOUNTS_UMA_DOMAIN: setting.string('uma.sandbox.local'),
  /** Currency of customers' EMBEDDED_WALLET accounts. */
  ACCOUNTS_EMBEDDED_WALLET_CURRENCY: setting.string('USD'),
  /** The current End User Terms version and where it is published. */
  ACCOUNTS_END_USER_TERMS_VERSION: setting.string('V1'),
  /**
   * Where the current End User Terms are published; GRID_MODE=production refuses to start without it @default
   * https://grid.sandbox.local/legal/end-user-terms/<version> in the sandbox
   */
  ACCOUNTS_END_USER_TERMS_URL: setting.optionalUrl('https:', 'http:'),
  /** Earlier versions a consent may still name (comma-separated); quotes need the current one. */
  ACCOUNTS_END_USER_TERMS_PREVIOUS_VERSIONS: setting.string(''),
  /** Pause between repair sweeps; 0 runs only the start-up sweep. */
  ACCOUNTS_REPAIR_INTERVAL_MS: setting.int(5000, 0, 3_600_000),
  /** Work younger than this is left to the request still doing it. */
  ACCOUNTS_REPAIR_GRACE_MS: setting.int(10_000, 0, 3_600_000),
  /**
   * Sandbox: hosted liveness, non-EVM wallet signatures and KYC/KYB decisions are simulated, contact codes are 123456;
   * off, KYC/KYB applications wait in PENDING_MANUAL_REVIEW (no real provider yet). @default true with
   * GRID_MODE=sandbox, false with GRID_MODE=production (which refuses true)
   */
  ACCOUNTS_SANDBOX: setting.sandboxSwitch(),
  /** Lifetime of an external-account ownership challenge */
  ACCOUNTS_OWNERSHIP_CHALLENGE_TTL_MS: setting.int(900_000, 1000, 86_400_000),
  /** Hosted liveness check used for ownership verification when not in the sandbox */
  ACCOUNTS_LIVENESS_URL: setting.optionalUrl('https:', 'http:'),
  /** Where an invitation's link points: `<base>/<code>`. */
  ACCOUNTS_INVITATION_URL_BASE: setting.string('https://uma.me/i'),
  /** Sandbox: how long the simulated hosted liveness check takes (GRID_MODE=production refuses it set). */
  ACCOUNTS_SANDBOX_LIVENESS_DELAY_MS: setting.sandboxOnly(setting.int(3000, 0, 3_600_000)),
  /** Sandbox KYC/KYB provider: delay between two steps of a verification (GRID_MODE=production refuses it set). */
  ACCOUNTS_KYC_STEP_MS: setting.sandboxOnly(setting.int(2000, 0, 3_600_000)),
  /** Lifetime of a hosted KYC link. */
  ACCOUNTS_KYC_LINK_TTL_MS: setting.int(86_400_000, 1000, 30 * 86_400_000),
  /** Public address of the gateway that serves the hosted KYC page (`<base>/kyc/<token>`). */
  ACCOUNTS_KYC_LINK_BASE_URL: setting.optionalUrl('https:', 'http:'),
  /** true: only APPROVED customers may send money; false: all but REJECTED and HOLD may. */
  ACCOUNTS_PAYMENTS_REQUIRE_KYC_APPROVAL: setting.bool(false),
  /** Contact verification: how long an email or SMS code stays valid. */
  ACCOUNTS_CONTACT_CODE_TTL_MS: setting.int(600_000, 1000, 86_400_000),
  /** Contact verification: minimum time between two codes sent to one channel (429 with Retry-After). */
  ACCOUNTS_CONTACT_CODE_INTERVAL_MS: setting.int(30_000, 0, 3_600_000),
  /** Contact verification: wrong tries one code allows before it is spent. */
  ACCOUNTS_CONTACT_CODE_MAX_ATTEMPTS: setting.int(5, 1, 100),
  /** SCA: how long an SMS code or a login, trust or payment challenge stays valid. */
  ACCOUNTS_SCA_CHALLENGE_TTL_MS: setting.int(300_000, 1000, 3_600_000),
  /** SCA: proofs one challenge evaluates before it is spent (concurrent guesses included). */
  ACCOUNTS_SCA_MAX_ATTEMPTS: setting.int(5, 1, 100),
  /** SCA: minimum time between two SMS codes of one challenge (429 with Retry-After). */
  ACCOUNTS_SCA_RESEND_INTERVAL_MS: setting.int(30_000, 0, 3_600_000),
  /** SCA: lifetime of the session an SCA login opens (the interface: 180 days). */
  ACCOUNTS_SCA_SESSION_TTL_MS: setting.int(180 * 86_400_000, 60_000, 365 * 86_400_000),
  /** SCA: how long a 2FA reset stays open. */
  ACCOUNTS_SCA_RESET_TTL_MS: setting.int(1_800_000, 60_000, 86_400_000),
  /** SCA passkeys: the WebAuthn relying-party id. */
  ACCOUNTS_SCA_RELYING_PARTY_ID: setting.string('localhost'),
  /** SCA passkeys: origins a ceremony may run against (comma-separated). */
  ACCOUNTS_SCA_PASSKEY_ORIGINS: setting.string('http://localhost:3000,https://localhost'),
  /** SCA TOTP: the issuer shown by authenticator apps. */
  ACCOUNTS_SCA_TOTP_ISSUER: setting.string('Grid'),
  /** Customer CSV imports: how often the worker looks for work. */
  ACCOUNTS_BULK_IMPORT_POLL_MS: setting.int(200, 10, 60_000),
  /** Customer CSV imports: after this, a row claimed by a process that stopped is taken again. */
  ACCOUNTS_BULK_IMPORT_CLAIM_TIMEOUT_MS: setting.int(60_000, 100, 3_600_000),
};

function currencyList(value: string): string[] {
  const codes = [...new Set(value.split(',').map((c) => c.trim().toUpperCase()).filter(Boolean))];
  const unknown = codes.filter((c) => !CURRENCY_CODES.includes(c));
  if (!codes.length || unknown.length) {
    throw new ConfigError(
      'ACCOUNTS_PLATFORM_CURRENCIES',
      `must list currencies among ${CURRENCY_CODES.join(', ')}${
        unknown.length ? `; unknown: ${unknown.join(', ')}` : ''
      }`,
    );
  }
  return codes;
}

function termsOf(version: string, url: string | undefined, previous: string): EndUserTermsCatalogue {
  const versions = [version, ...previous.split(',').map((v) => v.trim()).filter((v) => v && v !== version)];
  if (versions.some((v) => !/^[A-Za-z0-9._-]{1,64}$/.test(v))) {
    throw new ConfigError(
      'ACCOUNTS_END_USER_TERMS_VERSION',
      'and ACCOUNTS_END_USER_TERMS_PREVIOUS_VERSIONS must be versions of letters, digits, . _ -',
    );
  }
  return { version, url: url ?? `https://grid.sandbox.local/legal/end-user-terms/${version}`, knownVersions: versions };
}

/** Production shows customers their UMA address and the terms' URL: the sandbox placeholders are refused. */
function refuseSandboxPlaceholders(umaDomain: string, termsUrl: string | undefined): void {
  if (SANDBOX_HOST.test(umaDomain.trim())) {
    throw new ConfigError(
      'ACCOUNTS_UMA_DOMAIN',
      `is ${umaDomain}, the sandbox's placeholder, which GRID_MODE=production `
        + `refuses: set the domain your customers' UMA addresses live on`,
    );
  }
  if (termsUrl === undefined) {
    throw new ConfigError(
      'ACCOUNTS_END_USER_TERMS_URL',
      'is required with GRID_MODE=production: set the https URL where your End User Terms are published',
    );
  }
  if (SANDBOX_HOST.test(new URL(termsUrl).hostname)) {
    throw new ConfigError(
      'ACCOUNTS_END_USER_TERMS_URL',
      `is on ${new URL(termsUrl).hostname}, the sandbox's placeholder, which GRID_MODE=production refuses`,
    );
  }
}

/** The accounts service's settings from the environment, validated at start. */
export function readAccountsConfig(env: NodeJS.ProcessEnv) {
  const c = readConfig(SCHEMA, env);
  if (readRunMode(env) === 'production') {
    refuseSandboxPlaceholders(c.ACCOUNTS_UMA_DOMAIN, c.ACCOUNTS_END_USER_TERMS_URL);
  }
  const walletCurrency = c.ACCOUNTS_EMBEDDED_WALLET_CURRENCY.toUpperCase();
  if (!CURRENCY_CODES.includes(walletCurrency)) {
    throw new ConfigError('ACCOUNTS_EMBEDDED_WALLET_CURRENCY', `must be one of ${CURRENCY_CODES.join(', ')}`);
  }
  return {
    platformDefaults: {
      supportedCurrencies: currencyList(c.ACCOUNTS_PLATFORM_CURRENCIES),
      umaDomain: c.ACCOUNTS_UMA_DOMAIN,
      walletCurrency,
    },
    terms: termsOf(
      c.ACCOUNTS_END_USER_TERMS_VERSION,
      c.ACCOUNTS_END_USER_TERMS_URL,
      c.ACCOUNTS_END_USER_TERMS_PREVIOUS_VERSIONS,
    ),
    invitationUrlBase: c.ACCOUNTS_INVITATION_URL_BASE.replace(/\/+$/, ''),
    kyc: {
      /**
       * The sandbox KYC/KYB provider decides (the hosted page's choice, the applicant's name); off, applications wait
       * in manual review.
       */
      simulated: c.ACCOUNTS_SANDBOX,
      stepMs: c.ACCOUNTS_KYC_STEP_MS,
      linkTtlMs: c.ACCOUNTS_KYC_LINK_TTL_MS,
      linkBaseUrl: c.ACCOUNTS_KYC_LINK_BASE_URL ?? `http://localhost:${env.PORT ?? 8080}`,
      paymentsRequireApproval: c.ACCOUNTS_PAYMENTS_REQUIRE_KYC_APPROVAL,
    },
    contact: {
      sandbox: c.ACCOUNTS_SANDBOX,
      codeTtlMs: c.ACCOUNTS_CONTACT_CODE_TTL_MS,
      resendIntervalMs: c.ACCOUNTS_CONTACT_CODE_INTERVAL_MS,
      maxAttempts: c.ACCOUNTS_CONTACT_CODE_MAX_ATTEMPTS,
    },
    sca: {
      sandbox: c.ACCOUNTS_SANDBOX,
      challengeTtlMs: c.ACCOUNTS_SCA_CHALLENGE_TTL_MS,
      maxAttempts: c.ACCOUNTS_SCA_MAX_ATTEMPTS,
      resendIntervalMs: c.ACCOUNTS_SCA_RESEND_INTERVAL_MS,
      sessionTtlMs: c.ACCOUNTS_SCA_SESSION_TTL_MS,
      resetTtlMs: c.ACCOUNTS_SCA_RESET_TTL_MS,
      relyingParty: {
        id: c.ACCOUNTS_SCA_RELYING_PARTY_ID,
        name: c.ACCOUNTS_SCA_TOTP_ISSUER,
        origins: c.ACCOUNTS_SCA_PASSKEY_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean),
      },
      totpIssuer: c.ACCOUNTS_SCA_TOTP_ISSUER,
    },
    bulkImport: { pollMs: c.ACCOUNTS_BULK_IMPORT_POLL_MS, claimTimeoutMs: c.ACCOUNTS_BULK_IMPORT_CLAIM_TIMEOUT_MS },
    repair: { intervalMs: c.ACCOUNTS_REPAIR_INTERVAL_MS, graceMs: c.ACCOUNTS_REPAIR_GRACE_MS },
    ownership: {
      sandbox: c.ACCOUNTS_SANDBOX,
      challengeTtlMs: c.ACCOUNTS_OWNERSHIP_CHALLENGE_TTL_MS,
      liveness: {
        baseUrl: c.ACCOUNTS_LIVENESS_URL ?? 'https://liveness.sandbox.local',
        delayMs: c.ACCOUNTS_SANDBOX_LIVENESS_DELAY_MS,
      },
    },
  };
}
