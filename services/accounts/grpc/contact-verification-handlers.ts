import { ContactChannel, ContactVerificationServiceService } from '../../../gen/accounts/v1/contact_verification';
import { AppError } from '../../../lib/errors';
import { requirePlatform } from '../../../lib/grpc/call-context';
import { bindService } from '../../../lib/grpc/service-binding';
import type { ContactVerification } from '../app/contact-verification';
import type { Customer } from '../domain/customer';
import type { Customer as CustomerMessage } from '../../../gen/accounts/v1/accounts';

function channelOf(c: ContactChannel): 'email' | 'phone' {
  if (c === ContactChannel.EMAIL) return 'email';
  if (c === ContactChannel.PHONE) return 'phone';
  throw AppError.invalidInput('Invalid channel', [{ field: 'channel', message: 'must be EMAIL or PHONE' }]);
}

export function bindContactVerificationService(
  contact: ContactVerification,
  customer: (c: Customer) => CustomerMessage,
) {
  return bindService(ContactVerificationServiceService, {
    async sendContactCode(req, ctx) {
      await contact.send(requirePlatform(ctx), req.customerId, channelOf(req.channel));
      return {};
    },
    async confirmContactCode(req, ctx) {
      return {
        customer: customer(
          await contact.confirm(requirePlatform(ctx), req.customerId, channelOf(req.channel), req.code),
        ),
      };
    },
  });
}
