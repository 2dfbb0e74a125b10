// The request every create benchmark sends: the demo direct account's headers and a direct card
// payment (card 4111, so it stays PENDING and sends no webhook) that the sandbox answers 201.
export const KEY = 'sk_test_demo_direct_5b2f6e0c9d4a4f1e8c3b7a9d2e6f1c04';
export const HEADERS = { authorization: `Bearer ${KEY}`, 'x-merchant-account-id': 'acc_demo_direct', 'content-type': 'application/json' };
export const PAYMENT = {
  amount: 1050,
  currency: 'USD',
  description: 'bench',
  payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
  browser_info: { user_agent: 'bench' },
};
export const BODY = JSON.stringify(PAYMENT);
