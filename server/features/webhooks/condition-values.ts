import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { Invalid } from '../../errors';
import { decodeBech32 } from '../../../shared/cardano/bech32';
import { conditionValueError, type WebhookInput } from '../../../shared/webhooks';
import { addressNetworkOfWebhook } from '../../../shared/networks';

/** Webhook network id → the address network id (1 mainnet, 0 test networks), from the network table. */
const addressNetworkOf = addressNetworkOfWebhook;

function addressError(value: string, webhookNetwork: number): string | null {
  const want = addressNetworkOf(webhookNetwork);
  const wrongNetwork = `This address belongs to ${want === 1 ? 'a test network' : 'mainnet'}, not to the webhook's network.`;
  try {
    if (CSL.ByronAddress.is_valid(value)) {
      return CSL.ByronAddress.from_base58(value).network_id() === want ? null : wrongNetwork;
    }
    const address = CSL.Address.from_bech32(value);
    const stake = value.startsWith('stake');
    // A stake prefix must hold a reward address, an addr prefix must not.
    if (stake !== (CSL.RewardAddress.from_address(address) !== undefined)) return 'The address prefix does not match its kind.';
    return address.network_id() === want ? null : wrongNetwork;
  } catch {
    return 'This is not a valid Cardano address (its checksum or contents do not check out).';
  }
}

const bech32Of = (value: string, prefix: string, bytes: number): boolean => {
  const decoded = decodeBech32(value);
  return decoded !== null && decoded.prefix === prefix && decoded.bytes.length === bytes;
};

/** The value's full check beyond its shape: bech32 checksums, address bytes and network. */
export function conditionValueProblem(type: string, value: string, webhookNetwork: number): string | null {
  const shape = conditionValueError(type, value, webhookNetwork);
  if (shape) return shape;
  const v = value.trim();
  switch (type) {
    case 'recipient':
    case 'sender':
      return addressError(v, webhookNetwork);
    case 'fingerprint':
      return bech32Of(v, 'asset', 20) ? null : 'This asset fingerprint does not check out (bad checksum).';
    case 'poolId':
      return v.startsWith('pool1') && !bech32Of(v, 'pool', 28) ? 'This pool ID does not check out (bad checksum).' : null;
    default:
      return null;
  }
}

/** Refuses a webhook whose condition values cannot match anything on its network (400, with each field's path). */
export function checkConditionValues(input: WebhookInput): void {
  const details = input.conditions.flatMap((c, i) => {
    const message = conditionValueProblem(c.type, c.value, input.network);
    return message ? [{ path: `conditions.${i}.value`, message }] : [];
  });
  if (details.length) throw new Invalid(details[0]!.message, details);
}
