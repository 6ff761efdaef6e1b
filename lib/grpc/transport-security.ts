import { createPrivateKey, X509Certificate } from 'node:crypto';
import { ChannelCredentials, credentials, ServerCredentials } from '@grpc/grpc-js';
import { certificates, privateKey } from '../bus/kafka-security';
import { ConfigError, readConfig, setting } from '../config';

const SCHEMA = {
  /**
   * Mutual TLS between components: PEM file of the CA that signed every component's certificate; with
   * GRPC_TLS_CERT_FILE and GRPC_TLS_KEY_FILE, every gRPC server asks for a client certificate signed by it and every
   * client verifies the server's. Unset (all three): plaintext gRPC, for a network you trust (a service mesh,
   * NetworkPolicies)
   */
  GRPC_TLS_CA_FILE: setting.optionalString(),
  /**
   * PEM file of this component's certificate (served to clients, and presented to servers); it must name the address
   * clients dial (a SAN for each Service's DNS name)
   */
  GRPC_TLS_CERT_FILE: setting.optionalString(),
  /** PEM file of the private key of GRPC_TLS_CERT_FILE */
  GRPC_TLS_KEY_FILE: setting.optionalString(),
};

/** The PEMs of mutual TLS between components. */
export interface GrpcTls {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
}

/**
 * Mutual TLS settings, checked before anything listens or connects, as the Kafka ones are: the three
 * files together or none, each readable and holding what its name says, the key the certificate's,
 * the certificate signed by the CA. Every problem is a ConfigError naming the setting.
 */
export function readGrpcTls(env: NodeJS.ProcessEnv): GrpcTls | undefined {
  const c = readConfig(SCHEMA, env);
  const given = (['GRPC_TLS_CA_FILE', 'GRPC_TLS_CERT_FILE', 'GRPC_TLS_KEY_FILE'] as const).filter((name) => c[name]);
  if (given.length === 0) return undefined;
  if (given.length < 3) {
    const missing = (['GRPC_TLS_CA_FILE', 'GRPC_TLS_CERT_FILE', 'GRPC_TLS_KEY_FILE'] as const).find((name) =>
      !c[name]
    )!;
    throw new ConfigError(
      missing,
      `is required with ${given.join(' and ')} (mutual TLS needs the CA, the certificate and its key)`,
    );
  }
  const ca = certificates('GRPC_TLS_CA_FILE', c.GRPC_TLS_CA_FILE!);
  const cert = certificates('GRPC_TLS_CERT_FILE', c.GRPC_TLS_CERT_FILE!);
  const key = privateKey('GRPC_TLS_KEY_FILE', c.GRPC_TLS_KEY_FILE!);
  const own = new X509Certificate(cert);
  if (!own.checkPrivateKey(createPrivateKey(key))) {
    throw new ConfigError('GRPC_TLS_KEY_FILE', 'is not the private key of the certificate in GRPC_TLS_CERT_FILE');
  }
  if (!own.checkIssued(new X509Certificate(ca)) || !own.verify(new X509Certificate(ca).publicKey)) {
    throw new ConfigError(
      'GRPC_TLS_CERT_FILE',
      'is not signed by the CA in GRPC_TLS_CA_FILE (the other components would refuse it)',
    );
  }
  return { ca: Buffer.from(ca), cert: Buffer.from(cert), key: Buffer.from(key) };
}

let processTls: { value: GrpcTls | undefined } | undefined;

/** This process's settings (read from its environment once; main checks them at start). */
function configured(): GrpcTls | undefined {
  return (processTls ??= { value: readGrpcTls(process.env) }).value;
}

/** `null`: plaintext whatever the environment says (tests); undefined: this process's settings. */
export type TlsChoice = GrpcTls | null | undefined;
const chosen = (tls: TlsChoice) => (tls === undefined ? configured() : tls ?? undefined);

/** With TLS: a client certificate signed by the CA is required, or the connection is refused. */
export function serverCredentials(tls?: TlsChoice): ServerCredentials {
  const t = chosen(tls);
  return t
    ? ServerCredentials.createSsl(t.ca, [{ cert_chain: t.cert, private_key: t.key }], true)
    : ServerCredentials.createInsecure();
}

export function channelCredentials(tls?: TlsChoice): ChannelCredentials {
  const t = chosen(tls);
  return t ? credentials.createSsl(t.ca, t.key, t.cert) : credentials.createInsecure();
}
