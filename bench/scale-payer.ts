import type { createKeepAliveClient } from './keep-alive-client';

type Api = ReturnType<typeof createKeepAliveClient>;

/** The payer of the scale benchmark's payments: who pays, from which funded account, to whom. */
export type ScalePayer = Awaited<ReturnType<typeof prepareScalePayer>>;

/**
 * The platform's daily limit raised out of the way, and a customer (`platformCustomerId`) who accepted
 * the End User Terms, its USD account funded with 100,000,000.00, and an MXN bank account to pay.
 */
export async function prepareScalePayer(api: Api, payer: { platformCustomerId: string; fullName: string }) {
  const config = await api('PATCH', '/config', { limits: [{ currency: 'USD', dailyVolume: 1_000_000_000_000 }] });
  if (config.status !== 200) throw new Error(`PATCH /config answered ${config.status}`);
  const terms = await api('GET', '/customers/end-user-terms');
  const consent = {
    acceptedAt: new Date().toISOString(),
    ipAddress: '203.0.113.7',
    termsVersion: terms.body.version,
    acceptanceMethod: 'CHECKBOX',
  };
  const customer = await api('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    ...payer,
    email: 'payer@example.com',
    endUserTermsConsent: consent,
  });
  const accounts = await api(
    'GET',
    `/customers/internal-accounts?customerId=${customer.body.id}&type=INTERNAL_FIAT&currency=USD`,
  );
  const source = accounts.body.data[0].id as string;
  const funded = await api('POST', `/sandbox/internal-accounts/${source}/fund`, { amount: 10_000_000_000 });
  if (funded.status !== 200) throw new Error(`fund answered ${funded.status}`);
  const payee = await api('POST', '/customers/external-accounts', {
    customerId: customer.body.id,
    currency: 'MXN',
    accountInfo: {
      accountType: 'MXN_ACCOUNT',
      clabeNumber: '032180000118359719',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Maria Lopez' },
    },
  });
  return { consent, source, payee: payee.body.id as string };
}
