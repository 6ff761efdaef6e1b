/** A valid PATCH /config body using every member; tests change one member to make it invalid. */
export const FULL_CONFIG_UPDATE = {
  umaDomain: 'mycompany.com',
  webhookEndpoint: 'https://api.mycompany.com/webhooks/uma',
  supportedCurrencies: [
    {
      currencyCode: 'USD',
      minAmount: 100,
      maxAmount: 1000000,
      enabledTransactionTypes: ['OUTGOING', 'INCOMING'],
      requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }, { name: 'BIRTH_DATE', mandatory: false }],
    },
    {
      currencyCode: 'MXN',
      minAmount: 1000,
      maxAmount: 50000000,
      enabledTransactionTypes: ['INCOMING'],
      requiredCounterpartyFields: [],
    },
  ],
  embeddedWalletConfig: {
    appName: 'Acme Wallet',
    otpLength: 8,
    alphanumeric: true,
    expirationSeconds: 600,
    sendFromEmailAddress: 'noreply@acme.com',
    sendFromEmailSenderName: 'Acme Notifications',
    replyToEmailAddress: 'support@acme.com',
    logoUrl: 'https://acme.com/logo.png',
  },
  cardTokenization2faConfig: {
    displayName: 'Acme',
    logoUrl: 'https://acme.com/card-email-logo.png',
    email: { fromAddress: 'cards@acme.com', fromName: 'Acme Cards', subject: 'Your Acme card verification code' },
    sms: { templateSid: 'HJaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', bodyText: 'Use this code to finish adding your card.' },
  },
  feeConfigs: [{
    feeType: 'CROSS_CURRENCY_TRANSACTION',
    sourceCurrency: 'USD',
    variableFeeBps: 30,
    fixedFee: { amount: 100, currency: 'USD' },
  }],
  limits: [
    { currency: 'USD', maxSingleTransaction: 5_000_000, dailyVolume: 20_000_000 },
    { currency: 'USD', receivingCurrency: 'MXN', maxSingleTransaction: 1_000_000 },
  ],
};
