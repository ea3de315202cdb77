import { z } from 'zod';
import { sandboxSlugs } from './networks';

/** POST /dev/faucet: test ada (and test native assets) to any address, in the next sandbox block. */
export const faucetRequestSchema = z
  .object({
    network: z.enum(sandboxSlugs),
    address: z.string().min(1).max(200),
    /** Lovelace as a whole number (string or number), 1 to 100,000 ada. */
    lovelace: z.union([z.string().regex(/^\d{1,15}$/), z.number().int().nonnegative()]).default('10000000'),
    /** Test native assets minted under the faucet's policy; name as text (UTF-8, at most 32 bytes). */
    assets: z
      .array(z.object({ name: z.string().max(32), quantity: z.union([z.string().regex(/^\d{1,16}$/), z.number().int().positive()]) }).strict())
      .max(5)
      .optional(),
  })
  .strict();

export type FaucetRequestBody = z.input<typeof faucetRequestSchema>;

export const FAUCET_DEFAULT_LOVELACE = '10000000';

const LOVELACE_PER_ADA = 1_000_000;
/** The faucet sends 1 to 100,000 ada a request (the sandbox chain refuses more). */
export const FAUCET_MIN_ADA = 1;
export const FAUCET_MAX_ADA = 100_000;
/** Test tokens a request mints, at most (the chain's own bound). */
const MAX_TOKEN_QUANTITY = 1_000_000_000_000_000;

/** The dashboard faucet form's messages, one a field. */
export const FAUCET_FORM_MESSAGES = {
  address: 'Enter the address to send test ada to.',
  ada: `Ask for ${FAUCET_MIN_ADA} to ${FAUCET_MAX_ADA.toLocaleString('en-US')} ada.`,
  token: 'A test token name is at most 32 bytes in UTF-8.',
  quantity: 'Ask for a whole number of tokens, from 1 to 10^15.',
} as const;

/** A NumberInput's value: a number, or the text it holds while empty or half typed. */
const numberField = (message: string, ok: (n: number) => boolean) =>
  z.union([z.number(), z.string()]).refine((v) => v !== '' && Number.isFinite(Number(v)) && ok(Number(v)), { message });

/**
 * The dashboard's 'Get test ada' form: ada, and an optional token with its quantity. Its output is
 * the request the server parses with faucetRequestSchema, so the form and the endpoint share one rule set.
 */
export const faucetFormSchema = z
  .object({
    network: z.enum(sandboxSlugs),
    address: z.string().trim().min(1, FAUCET_FORM_MESSAGES.address).max(200, FAUCET_FORM_MESSAGES.address),
    ada: numberField(FAUCET_FORM_MESSAGES.ada, (n) => n >= FAUCET_MIN_ADA && n <= FAUCET_MAX_ADA),
    token: z
      .string()
      .trim()
      .refine((t) => new TextEncoder().encode(t).length <= 32, FAUCET_FORM_MESSAGES.token),
    quantity: z.union([z.number(), z.string()]),
  })
  // The quantity counts only with a token, so it is checked only then.
  .refine((v) => v.token === '' || (v.quantity !== '' && Number.isInteger(Number(v.quantity)) && Number(v.quantity) >= 1 && Number(v.quantity) <= MAX_TOKEN_QUANTITY), {
    message: FAUCET_FORM_MESSAGES.quantity,
    path: ['quantity'],
  })
  .transform(
    (v): FaucetRequestBody => ({
      network: v.network,
      address: v.address,
      lovelace: String(Math.round(Number(v.ada) * LOVELACE_PER_ADA)),
      ...(v.token ? { assets: [{ name: v.token, quantity: String(Number(v.quantity)) }] } : {}),
    }),
  )
  .pipe(faucetRequestSchema);
