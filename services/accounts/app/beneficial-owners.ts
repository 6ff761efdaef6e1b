import type { BeneficialOwnerFields } from '../../../gen/accounts/v1/beneficial_owners';
import { AppError } from '../../../lib/errors';
import { newId } from '../../../lib/ids';
import { pageQuery } from '../../../lib/page-cursor';
import {
  applyOwnerChanges,
  maskIdentifier,
  validateOwnerRequest,
  type BeneficialOwner,
} from '../domain/beneficial-owner';
import type { AccountsStore, Page } from './accounts-store';
import type { PiiSealer } from './service-ports';

/** An owner as read: its identification number masked, never in full. */
export type OwnerView = BeneficialOwner & { maskedIdentifier?: string };

export interface BeneficialOwners {
  create(platformId: string, fields: BeneficialOwnerFields | undefined): Promise<OwnerView>;
  get(platformId: string, id: string): Promise<OwnerView>;
  list(platformId: string, query: { customerId?: string; limit: number; cursor?: string }): Promise<Page<OwnerView>>;
  update(platformId: string, id: string, fields: BeneficialOwnerFields | undefined): Promise<OwnerView>;
}

/** Owners, directors and officers of business customers; identification numbers are stored sealed. */
export function createBeneficialOwners(
  deps: { store: AccountsStore; sealer: PiiSealer; clock: () => Date },
): BeneficialOwners {
  const { store, sealer } = deps;
  const view = (owner: BeneficialOwner): OwnerView =>
    owner.sealedIdentifier
      ? { ...owner, maskedIdentifier: maskIdentifier(sealer.open(owner.sealedIdentifier, owner.id)) }
      : owner;
  const find = async (platformId: string, id: string) => {
    const owner = await store.beneficialOwners.find(platformId, id);
    if (!owner) throw AppError.notFound('Beneficial owner');
    return owner;
  };
  return {
    async create(platformId, fields) {
      const draft = validateOwnerRequest(fields, true);
      const customer = await store.customers.find(platformId, draft.customerId);
      if (!customer || customer.isDeleted) throw AppError.notFound('Customer', 'USER_NOT_FOUND');
      if (customer.customerType !== 'BUSINESS') {
        throw AppError.invalidInput('Invalid beneficial owner', [{
          field: 'customerId',
          message: 'must be a business customer',
        }]);
      }
      const id = newId('BeneficialOwner');
      const now = deps.clock().toISOString();
      const { identifier, ...info } = draft.personalInfo!;
      const owner: BeneficialOwner = {
        id,
        platformId,
        customerId: customer.id,
        roles: draft.roles!,
        ownershipPercentage: draft.ownershipPercentage!,
        personalInfo: info,
        sealedIdentifier: sealer.seal(identifier!, id),
        // Its status follows its business's verifications from the next one on.
        kycStatus: 'UNVERIFIED',
        createdAt: now,
        updatedAt: now,
        revision: 1,
      };
      await store.beneficialOwners.insert(owner);
      return view(owner);
    },
    async get(platformId, id) {
      return view(await find(platformId, id));
    },
    async list(platformId, query) {
      const page = await store.beneficialOwners.list(
        platformId,
        query.customerId,
        pageQuery(query.limit, query.cursor),
      );
      return { ...page, items: page.items.map(view) };
    },
    async update(platformId, id, fields) {
      const current = await find(platformId, id);
      const changes = validateOwnerRequest(fields, false);
      const identifier = changes.personalInfo?.identifier;
      const next = applyOwnerChanges(
        current,
        changes,
        deps.clock().toISOString(),
        identifier ? sealer.seal(identifier, id) : undefined,
      );
      if (!(await store.beneficialOwners.replace(next))) {
        throw new AppError('CONFLICT', 'The beneficial owner was changed by another request; retry');
      }
      return view(next);
    },
  };
}
