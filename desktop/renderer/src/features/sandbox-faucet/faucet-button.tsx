import { useState, type FormEvent } from 'react';
import { Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { IconDroplet } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { findNetwork } from '../../../../../shared/networks';
import { FAUCET_DEFAULT_LOVELACE } from '../../../../../shared/sandbox-faucet';
import { errorMessage } from '../../api/client';
import { ModalDialog } from '../../components/modal-dialog';
import { faucetQueries, useFaucet, type FaucetPaymentDto } from './queries';

/**
 * 'Get test ada' on a sandbox project: sends test ada (and a test token on request) to any address in
 * the next sandbox block. Shown only where the faucet answers: outside production, on this machine.
 */
export function FaucetButton({ networkId, sandbox }: { networkId: number; sandbox: boolean }) {
  const slug = findNetwork(networkId)?.slug;
  const wallets = useQuery({ ...faucetQueries.wallets(), enabled: sandbox });
  const [open, setOpen] = useState(false);
  const network = wallets.data?.find((n) => n.network === slug);
  if (!sandbox || !slug || !network) return null;
  return (
    <>
      <Button variant="light" color="orange" leftSection={<IconDroplet size={16} aria-hidden />} onClick={() => setOpen(true)} style={{ alignSelf: 'flex-start' }}>
        Get test ada
      </Button>
      <ModalDialog opened={open} onClose={() => setOpen(false)} title="Sandbox faucet">
        <FaucetForm network={slug} defaultAddress={network.wallets[0]?.address ?? ''} />
      </ModalDialog>
    </>
  );
}

function FaucetForm({ network, defaultAddress }: { network: string; defaultAddress: string }) {
  const faucet = useFaucet();
  const [address, setAddress] = useState(defaultAddress);
  const [ada, setAda] = useState<number | string>(Number(FAUCET_DEFAULT_LOVELACE) / 1_000_000);
  const [token, setToken] = useState('');
  const [quantity, setQuantity] = useState<number | string>(1000);
  const [paid, setPaid] = useState<FaucetPaymentDto | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (faucet.isPending) return;
    setPaid(null);
    const lovelace = String(Math.round(Number(ada) * 1_000_000));
    faucet.mutate(
      { network: network as never, address: address.trim(), lovelace, ...(token.trim() ? { assets: [{ name: token.trim(), quantity: String(quantity) }] } : {}) },
      { onSuccess: setPaid },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Test ada for {network}'s sandbox chain, in the next block. It exists only on this Cairn, outside production.
        </Text>
        <TextInput label="Address" value={address} onChange={(e) => setAddress(e.currentTarget.value)} required autoComplete="off" spellCheck={false} />
        <NumberInput label="Ada" value={ada} onChange={setAda} min={1} max={100_000} decimalScale={6} required />
        {/* Only the token has a description: aligned at the bottom, the two inputs line up. */}
        <Group grow align="flex-end">
          <TextInput label="Test token (optional)" description="Minted by the faucet's policy" value={token} onChange={(e) => setToken(e.currentTarget.value)} maxLength={32} />
          <NumberInput label="Quantity" value={quantity} onChange={setQuantity} min={1} allowDecimal={false} disabled={!token.trim()} />
        </Group>
        {faucet.isError && (
          <Text c="red.8" size="sm" role="alert">
            {errorMessage(faucet.error, 'The faucet could not send test ada.')}
          </Text>
        )}
        {paid && (
          <Text size="sm" role="status" style={{ overflowWrap: 'anywhere' }}>
            Sent {Number(paid.lovelace) / 1_000_000} ada{paid.assets.length > 0 ? ' and the test token' : ''} in block {paid.height}: transaction{' '}
            <Text component="span" ff="monospace" size="sm">
              {paid.txHash}
            </Text>
          </Text>
        )}
        <Button type="submit" loading={faucet.isPending}>
          Send
        </Button>
      </Stack>
    </form>
  );
}
