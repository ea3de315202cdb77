import { describe, expect, it } from 'vitest';
import { FAUCET_FORM_MESSAGES, faucetFormSchema, faucetRequestSchema } from '../../../shared/sandbox-faucet';

const fields = { network: 'cardano-preprod' as const, address: ' addr_test1x ', ada: 25, token: '', quantity: 1000 };
const errorsOf = (input: unknown) =>
  Object.fromEntries((faucetFormSchema.safeParse(input).error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe("the faucet form's schema", () => {
  it('turns ada, a token and its quantity into the request the server parses', () => {
    expect(faucetFormSchema.parse(fields)).toEqual({ network: 'cardano-preprod', address: 'addr_test1x', lovelace: '25000000' });
    const withToken = faucetFormSchema.parse({ ...fields, ada: '1.5', token: ' PEBBLE ', quantity: '7' });
    expect(withToken).toEqual({ network: 'cardano-preprod', address: 'addr_test1x', lovelace: '1500000', assets: [{ name: 'PEBBLE', quantity: '7' }] });
    expect(faucetRequestSchema.safeParse(withToken).success).toBe(true);
  });

  it('says what is wrong on the field that is, and checks the quantity only with a token', () => {
    expect(errorsOf({ ...fields, address: '  ' })).toEqual({ address: FAUCET_FORM_MESSAGES.address });
    for (const ada of ['', 0.5, 100_001, 'x']) expect(errorsOf({ ...fields, ada }), String(ada)).toEqual({ ada: FAUCET_FORM_MESSAGES.ada });
    expect(errorsOf({ ...fields, token: 'é'.repeat(17) })).toEqual({ token: FAUCET_FORM_MESSAGES.token });
    expect(errorsOf({ ...fields, quantity: '' })).toEqual({});
    for (const quantity of ['', 0, 1.5, 1e16]) expect(errorsOf({ ...fields, token: 'PEBBLE', quantity }), String(quantity)).toEqual({ quantity: FAUCET_FORM_MESSAGES.quantity });
  });
});
