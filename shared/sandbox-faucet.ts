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
