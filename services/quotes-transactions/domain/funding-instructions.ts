import { createHash } from 'node:crypto';

/** The human-usable reference a payment is reconciled by, e.g. PAY-3F2A91C07B44. */
export function paymentReference(paymentId: string): string {
  return `PAY-${paymentId.slice(paymentId.indexOf(':') + 1).replace(/-/g, '').slice(0, 12).toUpperCase()}`;
}

const digits = (seed: string, n: number) => BigInt(`0x${createHash('sha256').update(seed).digest('hex')}`).toString().slice(0, n);

/**
 * Where the sandbox asks a realtime-funded quote to be paid: a bank account for fiat, a deposit
 * address for crypto, always with the payment's reference. Simulate the payment with /sandbox/send.
 */
export function sandboxFundingInstructions(input: { currency: string; cryptoNetwork?: string; reference: string }): Array<Record<string, unknown>> {
  const { currency, cryptoNetwork, reference } = input;
  if (cryptoNetwork) {
    return [{
      accountOrWalletInfo: { accountType: `${cryptoNetwork}_WALLET`, assetType: currency, address: `sandbox${digits(reference, 24)}`, reference },
      instructionsNotes: `Send ${currency} on ${cryptoNetwork} to this sandbox address`,
    }];
  }
  const account = currency === 'EUR'
    ? { accountType: 'EUR_ACCOUNT', paymentRails: ['SEPA_INSTANT'], iban: `DE89370400440${digits(reference, 9)}`, bankName: 'Sandbox Bank' }
    : { accountType: `${currency}_ACCOUNT`, paymentRails: currency === 'USD' ? ['RTP', 'FEDNOW'] : ['BANK_TRANSFER'], accountNumber: digits(reference, 10), routingNumber: '021000021', bankName: 'Sandbox Bank' };
  return [{ accountOrWalletInfo: { ...account, reference }, instructionsNotes: `Include reference ${reference} in the payment` }];
}
