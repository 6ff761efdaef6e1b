import { createHash } from 'node:crypto';

/** The human-usable reference a payment is reconciled by, e.g. PAY-3F2A91C07B44. */
export function paymentReference(paymentId: string): string {
  return `PAY-${paymentId.slice(paymentId.indexOf(':') + 1).replace(/-/g, '').slice(0, 12).toUpperCase()}`;
}

const digits = (seed: string, n: number) =>
  BigInt(`0x${createHash('sha256').update(seed).digest('hex')}`).toString().slice(0, n);

/** A CLABE: 17 digits and the check digit of its weighted sum (weights 3, 7, 1). */
function clabe(first17: string): string {
  const sum = [...first17].reduce((total, d, i) => total + ((Number(d) * [3, 7, 1][i % 3]) % 10), 0);
  return `${first17}${(10 - (sum % 10)) % 10}`;
}

/** CRC-16/CCITT-FALSE, the checksum closing an EMV QR (PIX "copia e cola") payload. */
function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(payload, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

const emv = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;

/** A static PIX payload to the sandbox's key, carrying the payment's reference as its txid. */
function pixQrCode(reference: string): string {
  const account = emv('26', emv('00', 'br.gov.bcb.pix') + emv('01', 'sandbox@grid.example'));
  const body = emv('00', '01') + account + emv('52', '0000') + emv('53', '986') + emv('58', 'BR')
    + emv('59', 'SANDBOX BANK') + emv('60', 'SAO PAULO')
    + emv('62', emv('05', reference.replace(/[^A-Za-z0-9]/g, '')));
  const unsigned = `${body}6304`;
  return `${unsigned}${crc16(unsigned)}`;
}

const BANK = 'Sandbox Bank';
const SWIFT = 'SBOXXXXX';

/**
 * The sandbox's collection account in one fiat currency, as the reference's variant for that
 * currency's account type requires it (Payment<Currency>AccountInfo): its number formats, rails
 * and identifiers. The reference's PaymentAccountType lists the currencies a platform can be paid
 * in (the others are payout-only); COP's variant is a hosted payment link the sandbox has not.
 * Undefined for any other currency.
 */
function sandboxBankAccount(currency: string, reference: string): Record<string, unknown> | undefined {
  const n = (count: number) => digits(`${currency}/${reference}`, count);
  const account = (rails: string[], members: Record<string, unknown>) => ({
    accountType: `${currency}_ACCOUNT`,
    paymentRails: rails,
    ...members,
  });
  switch (currency) {
    case 'USD':
      return account(['RTP', 'FEDNOW'], { accountNumber: n(10), routingNumber: '021000021', bankName: BANK });
    case 'EUR':
      return account(['SEPA_INSTANT'], { iban: `DE89370400440${n(9)}`, bankName: BANK });
    case 'DKK':
      return account(['SEPA'], { iban: `DK50${n(14)}` });
    case 'MXN':
      return account(['SPEI'], { clabeNumber: clabe(`646180${n(11)}`) });
    case 'BRL':
      return { accountType: 'BRL_ACCOUNT', paymentRails: ['PIX'], qrCode: pixQrCode(reference) };
    case 'GBP':
      return account(['FASTER_PAYMENTS'], { sortCode: '040004', accountNumber: n(8) });
    case 'CAD':
      return account(['BANK_TRANSFER'], { accountNumber: n(10), bankCode: '001', branchCode: '00011', bankName: BANK });
    case 'INR':
      return account(['NEFT'], { accountNumber: n(12), bankName: BANK });
    case 'NGN':
    case 'PHP':
      return account(['BANK_TRANSFER'], { accountNumber: n(10), bankName: BANK });
    case 'HKD':
    case 'MYR':
    case 'THB':
    case 'VND':
    case 'SGD':
      return account(['BANK_TRANSFER'], { accountNumber: n(10), bankName: BANK, swiftCode: SWIFT });
    case 'IDR':
      return account(['BANK_TRANSFER'], {
        accountNumber: n(10),
        bankName: BANK,
        swiftCode: SWIFT,
        phoneNumber: `+62${n(10)}`,
      });
    case 'ARS':
      return { accountType: 'ARS_ACCOUNT', accountNumber: n(22) };
    default:
      return undefined;
  }
}

/**
 * Where the sandbox asks a realtime-funded quote to be paid: a bank or mobile-money account for
 * fiat, a deposit address for crypto, always with the payment's reference. Simulate the payment
 * with /sandbox/send. Undefined when the sandbox has no collection account in the currency.
 */
export function sandboxFundingInstructions(
  input: { currency: string; cryptoNetwork?: string; reference: string },
): Array<Record<string, unknown>> | undefined {
  const { currency, cryptoNetwork, reference } = input;
  if (cryptoNetwork) {
    return [{
      accountOrWalletInfo: {
        accountType: `${cryptoNetwork}_WALLET`,
        assetType: currency,
        address: `sandbox${digits(reference, 24)}`,
        reference,
      },
      instructionsNotes: `Send ${currency} on ${cryptoNetwork} to this sandbox address`,
    }];
  }
  const account = sandboxBankAccount(currency, reference);
  return account
    && [{
      accountOrWalletInfo: { ...account, reference },
      instructionsNotes: `Include reference ${reference} in the payment`,
    }];
}
