import type { PayerData } from '@uma-sdk/core';

const FIELD_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * What the sender told about the payer, as the incoming-payment webhook names counterparty fields:
 * the payer data's name and email, and the fields of a JSON travel-rule object (upper-case names,
 * short values). Travel-rule information in another format is passed whole as TRAVEL_RULE_INFO.
 */
export function counterpartyInformationOf(
  payerData: PayerData | undefined,
  travelRuleInfo: string | undefined,
): Record<string, unknown> {
  const info: Record<string, unknown> = {};
  if (typeof payerData?.name === 'string' && payerData.name) info.FULL_NAME = payerData.name.slice(0, 255);
  if (typeof payerData?.email === 'string' && payerData.email) info.EMAIL = payerData.email.slice(0, 255);
  if (!travelRuleInfo) return info;
  let parsed: unknown;
  try {
    parsed = JSON.parse(travelRuleInfo);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ...info, TRAVEL_RULE_INFO: travelRuleInfo.slice(0, 4096) };
  }
  for (const [name, value] of Object.entries(parsed)) {
    if (FIELD_NAME.test(name) && (typeof value === 'string' || typeof value === 'number')) {
      info[name] = String(value).slice(0, 255);
    }
  }
  return info;
}
