// Every bridge channel's arguments, checked in the main process before a handler runs: the renderer shows a
// web page, so whatever it sends is treated as untrusted input. Keyed by the channel table, so a channel added
// to the bridge without a schema here does not compile.
import { z } from 'zod';
import { consoleMethods, type BridgeArgs, type BridgeChannel } from '../preload/bridge';

const projectUuid = z.string().uuid('projectUuid must be a project uuid');

const consoleRequestSchema = z
  .object({
    projectUuid,
    method: z.enum(consoleMethods),
    path: z
      .string()
      .min(1)
      .max(2048, 'path is too long')
      .regex(/^\/[^\s\\#]*$/, 'path must start with / and hold no spaces, backslashes or fragments')
      .refine((p) => !/(^|\/)\.\.?(\/|$|\?)/.test(p.split('?')[0] ?? ''), 'path must not hold . or .. segments'),
    body: z.string().max(1_000_000, 'body is larger than 1 MB').optional(),
  })
  .strict()
  .refine((r) => r.method === 'POST' || r.body === undefined, { message: 'a GET request has no body' });

export const bridgeArgSchemas: { [C in BridgeChannel]: z.ZodType<BridgeArgs<C>> } = {
  'app:version': z.tuple([]),
  'auth:sign-in': z.tuple([]),
  'keychain:keep': z.tuple([projectUuid]),
  'keychain:list': z.tuple([]),
  'keychain:remove': z.tuple([projectUuid]),
  'console:send': z.tuple([consoleRequestSchema]),
  'sandbox:open': z.tuple([]),
};
