import {
  BeneficialOwnerServiceService,
  type BeneficialOwner as OwnerMessage,
} from '../../../gen/accounts/v1/beneficial_owners';
import { requirePlatform } from '../../../lib/grpc/call-context';
import { bindService } from '../../../lib/grpc/service-binding';
import { nextPageCursor } from '../../../lib/page-cursor';
import type { BeneficialOwners, OwnerView } from '../app/beneficial-owners';

/** The identification number leaves the service masked only. */
export function ownerMessage(o: OwnerView): OwnerMessage {
  const p = o.personalInfo;
  return {
    id: o.id,
    customerId: o.customerId,
    roles: o.roles,
    ownershipPercentage: o.ownershipPercentage,
    kycStatus: o.kycStatus,
    personalInfo: {
      firstName: p.firstName ?? '',
      middleName: p.middleName,
      lastName: p.lastName ?? '',
      birthDate: p.birthDate ?? '',
      nationality: p.nationality ?? '',
      email: p.email,
      phoneNumber: p.phoneNumber,
      address: p.address,
      idType: p.idType ?? '',
      countryOfIssuance: p.countryOfIssuance,
      maskedIdentifier: o.maskedIdentifier,
    },
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}

export function bindBeneficialOwnerService(owners: BeneficialOwners) {
  return bindService(BeneficialOwnerServiceService, {
    async createBeneficialOwner(req, ctx) {
      return { owner: ownerMessage(await owners.create(requirePlatform(ctx), req.owner)) };
    },
    async getBeneficialOwner(req, ctx) {
      return { owner: ownerMessage(await owners.get(requirePlatform(ctx), req.id)) };
    },
    async listBeneficialOwners(req, ctx) {
      const page = await owners.list(requirePlatform(ctx), {
        customerId: req.customerId,
        limit: req.limit,
        cursor: req.cursor,
      });
      return {
        owners: page.items.map(ownerMessage),
        hasMore: page.hasMore,
        nextCursor: nextPageCursor(page.items, page.hasMore),
        totalCount: page.totalCount,
      };
    },
    async updateBeneficialOwner(req, ctx) {
      return { owner: ownerMessage(await owners.update(requirePlatform(ctx), req.id, req.changes)) };
    },
  });
}
