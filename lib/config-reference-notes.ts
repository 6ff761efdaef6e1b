/**
 * Variables the code reads directly rather than through a config schema (the OpenTelemetry SDK's
 * standard ones, and keys the embedded mode keeps in DATA_DIR when unset). The
 * configuration table (docs/configuration.md) is generated from the schemas plus this list
 * (scripts/config-reference.cjs).
 */
export const DIRECTLY_READ_VARIABLES = {
  COMPONENT: {
    default: 'all',
    meaning: 'Which component to run when no argument is given: all, '
      + 'gateway, auth, accounts, quotes-transactions, notifications',
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: { default: '(unset)', meaning: 'OTLP collector; setting it turns trace export on' },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {
    default: '(unset)',
    meaning: 'OTLP endpoint for traces only (overrides OTEL_EXPORTER_OTLP_ENDPOINT)',
  },
  OTEL_EXPORTER_OTLP_PROTOCOL: {
    default: 'http/protobuf',
    meaning: 'http/protobuf, http/json or grpc: which OTLP exporter sends the spans',
  },
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: {
    default: '(unset)',
    meaning: 'The protocol for traces only (overrides OTEL_EXPORTER_OTLP_PROTOCOL)',
  },
  OTEL_TRACES_EXPORTER: { default: '(unset)', meaning: 'otlp, console or none; otlp when an OTLP endpoint is set' },
  OTEL_SDK_DISABLED: { default: 'false', meaning: 'true: no spans are exported whatever else is set' },
  OTEL_SERVICE_NAME: { default: 'grid-<component>', meaning: 'service.name of the spans' },
  API_SECRET_PEPPER: {
    default: 'generated in DATA_DIR/keys',
    meaning: 'Secret mixed into API token hashes (at least 32 characters); '
      + 'required with MONGODB_URI; changing it invalidates issued secrets',
  },
  ACCOUNTS_PII_KEY: {
    default: 'generated in DATA_DIR/keys',
    meaning: 'AES-256-GCM key (32 bytes hex) sealing customer identification numbers; required with MONGODB_URI',
  },
  CARDS_DATA_KEY: {
    default: 'generated in DATA_DIR/keys',
    meaning: "AES-256-GCM key (32 bytes hex) sealing the sandbox card issuer's card "
      + 'data (PAN, CVV, expiry); required with MONGODB_URI or in production',
    readBy: 'quotes-transactions',
  },
  MONGODB_DB_PREFIX: {
    default: 'grid',
    meaning: 'With MONGODB_URI: each service uses the database <prefix>_<service>',
  },
  MESSAGE_DELIVERY_URL: {
    default: '(unset)',
    meaning: 'HTTP endpoint of the mail/SMS bridge messages are POSTed to; unset keeps '
      + 'them in memory (nothing delivered; refused with GRID_MODE=production)',
    readBy: 'notifications',
  },
  AUTH_ADDRESS: {
    default: '**required** (component alone)',
    meaning: 'host:port of the auth service, for components run on their own',
  },
  ACCOUNTS_ADDRESS: {
    default: '**required** (component alone)',
    meaning: 'host:port of the accounts service, for components run on their own',
  },
  QUOTES_TRANSACTIONS_ADDRESS: {
    default: '**required** (component alone)',
    meaning: 'host:port of the quotes-transactions service, for components run on their own',
  },
  NOTIFICATIONS_ADDRESS: {
    default: '**required** (component alone)',
    meaning: 'host:port of the notifications service, for components run on their own',
  },
} as const;
