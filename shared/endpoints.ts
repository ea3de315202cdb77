import { bech32 } from '@scure/base';
import { z } from 'zod';
import { messages } from './messages';
import { networkBySlug, sandboxSlugs, type SandboxSlug } from './networks';

// Community endpoints: Blockfrost-compatible backends submitted through the submit-endpoint form
// (spec sections 2 and 5), checked, reviewed by an operator and then used as upstreams of their network.

/** Spec section 5: the payment address decodes as bech32 with this length limit. */
const ADDRESS_DECODE_LIMIT = 1000;

/** Networks a community endpoint can serve (those of the sandbox chain), with the network id of their payment addresses (CIP-19), from shared/networks.ts. */
export type EndpointNetwork = SandboxSlug;
export const endpointNetworks: Readonly<Record<EndpointNetwork, { label: string; addressNetworkId: number; networkMagic: number }>> = Object.fromEntries(
  sandboxSlugs.map((slug) => {
    const n = networkBySlug(slug)!;
    return [slug, { label: n.label, addressNetworkId: n.cardano!.addressNetworkId, networkMagic: n.cardano!.networkMagic }];
  }),
) as Record<EndpointNetwork, { label: string; addressNetworkId: number; networkMagic: number }>;

const isValidEndpointUrl = (value: string): boolean => {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' && !u.username && !u.password;
  } catch {
    return false;
  }
};

/**
 * The structural part of the address check, shared by the form and the server: bech32 within the
 * decode limit with an address prefix. The server then decodes it fully with
 * @emurgo/cardano-serialization-lib-nodejs and matches its network.
 */
export function looksLikeShelleyAddress(value: string): boolean {
  try {
    const { prefix } = bech32.decode(value as `${string}1${string}`, ADDRESS_DECODE_LIMIT);
    return prefix === 'addr' || prefix === 'addr_test';
  } catch {
    return false;
  }
}

export const submitEndpointSchema = z.object({
  endpoint: z
    .string({ error: messages.submitEndpoint.endpointEmpty })
    .trim()
    .min(1, { error: messages.submitEndpoint.endpointEmpty, abort: true })
    .max(2048, { error: messages.submitEndpoint.urlInvalid, abort: true })
    .refine(isValidEndpointUrl, messages.submitEndpoint.urlInvalid)
    .transform((v) => v.replace(/\/+$/, '')),
  paymentAddress: z
    .string({ error: messages.submitEndpoint.addressEmpty })
    .trim()
    .min(1, { error: messages.submitEndpoint.addressEmpty, abort: true })
    .refine(looksLikeShelleyAddress, messages.submitEndpoint.addressInvalid),
});
export type SubmitEndpointInput = z.input<typeof submitEndpointSchema>;

export type EndpointStatus = 'pending' | 'enabled' | 'disabled' | 'rejected';

export interface CommunityEndpoint {
  id: number;
  url: string;
  payment_address: string;
  network: EndpointNetwork;
  status: EndpointStatus;
  backend_version: string | null;
  position: number;
  checked_at: number;
  reviewed_at: number | null;
  created_at: number;
  /** Requests it served, all days together. */
  requests_served: number;
}

/** What the operator sees: the endpoint, who submitted it, and whether the gateway finds it healthy now. */
export interface ReviewedEndpoint extends CommunityEndpoint {
  submitter_email: string;
}

export const endpointActionSchema = z.object({ action: z.enum(['enable', 'disable', 'reject']) });
