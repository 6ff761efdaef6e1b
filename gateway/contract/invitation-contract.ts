import { Type } from '@sinclair/typebox';
import { CurrencyAmount } from './common-schemas';
import { operation } from './operation';
import { ClosedObject, DateTime, MinorUnits, named, StringEnum } from './schema-kit';

export const UmaInvitation = named(
  'UmaInvitation',
  ClosedObject({
    code: Type.String(),
    createdAt: DateTime(),
    claimedAt: Type.Optional(DateTime()),
    url: Type.String({ description: 'The link to share' }),
    expiresAt: Type.Optional(DateTime()),
    inviterUma: Type.String(),
    inviteeUma: Type.Optional(Type.String()),
    status: StringEnum(['PENDING', 'CLAIMED', 'EXPIRED', 'CANCELLED'] as const),
    firstName: Type.Optional(Type.String()),
    amountToSend: Type.Optional(CurrencyAmount),
  }),
);

const UmaInvitationCreateRequest = named(
  'UmaInvitationCreateRequest',
  Type.Object({
    inviterUma: Type.String({ description: "The UMA address of one of the platform's customers" }),
    firstName: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    amountToSend: Type.Optional(
      MinorUnits({
        minimum: 1,
        description: 'Shown to the invitee; the inviting platform sends it after INVITATION.CLAIMED',
      }),
    ),
    expiresAt: Type.Optional(DateTime()),
  }),
);

const UmaInvitationClaimRequest = named('UmaInvitationClaimRequest', Type.Object({ inviteeUma: Type.String() }));

const TAGS = ['Invitations'];
const code = { invitationCode: Type.String() };

export const invitationOperations = [
  operation({
    operationId: 'createInvitation',
    method: 'post',
    path: '/invitations',
    tags: TAGS,
    summary: "Invite someone by link, from one of the platform's customers",
    body: UmaInvitationCreateRequest,
    success: { 201: UmaInvitation },
  }),
  operation({
    operationId: 'getInvitation',
    method: 'get',
    path: '/invitations/{invitationCode}',
    tags: TAGS,
    summary: 'Read an invitation by its code (any platform)',
    pathParams: code,
    success: { 200: UmaInvitation },
    errors: [404],
  }),
  operation({
    operationId: 'claimInvitation',
    method: 'post',
    path: '/invitations/{invitationCode}/claim',
    tags: TAGS,
    summary:
      "Claim an invitation with the invitee's UMA address, exactly once; the inviting platform gets INVITATION.CLAIMED",
    pathParams: code,
    body: UmaInvitationClaimRequest,
    success: { 200: UmaInvitation },
    errors: [404],
  }),
  operation({
    operationId: 'cancelInvitation',
    method: 'post',
    path: '/invitations/{invitationCode}/cancel',
    tags: TAGS,
    summary: 'Cancel a pending invitation (the creating platform only)',
    pathParams: code,
    success: { 200: UmaInvitation },
    errors: [404],
  }),
];
