import { useState } from 'react';
import { Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { IconDroplet } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { findNetwork, isSandboxSlug, type SandboxSlug } from '../../../../../shared/networks';
import { FAUCET_DEFAULT_LOVELACE, FAUCET_MAX_ADA, FAUCET_MIN_ADA, faucetFormSchema } from '../../../../../shared/sandbox-faucet';
import { errorMessage } from '../../api/client';
import { ModalDialog } from '../../components/modal-dialog';
import { useZodForm } from '../../components/zod-form';
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
  if (!sandbox || !slug || !isSandboxSlug(slug) || !network) return null;
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

function FaucetForm({ network, defaultAddress }: { network: SandboxSlug; defaultAddress: string }) {
  const faucet = useFaucet();
  const { form, onSubmit } = useZodForm(faucetFormSchema, {
    network,
    address: defaultAddress,
    ada: Number(FAUCET_DEFAULT_LOVELACE) / 1_000_000,
    token: '',
    quantity: 1000,
  });
  const [paid, setPaid] = useState<FaucetPaymentDto | null>(null);
  const token = form.getValues().token;

  const submit = onSubmit((request) => {
    if (faucet.isPending) return;
    setPaid(null);
    faucet.mutate(request, { onSuccess: setPaid });
    // A refusal of the server's from an earlier try would read as about the fields now marked.
  }, () => faucet.reset());

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Test ada for {network}'s sandbox chain, in the next block. It exists only on this Cairn, outside production.
        </Text>
        <TextInput label="Address" {...form.getInputProps('address')} required autoComplete="off" spellCheck={false} />
        <NumberInput label="Ada" {...form.getInputProps('ada')} min={FAUCET_MIN_ADA} max={FAUCET_MAX_ADA} clampBehavior="none" decimalScale={6} required />
        {/* Only the token has a description: aligned at the bottom, the two inputs line up. */}
        <Group grow align="flex-end">
          <TextInput label="Test token (optional)" description="Minted by the faucet's policy" {...form.getInputProps('token')} maxLength={32} />
          <NumberInput label="Quantity" {...form.getInputProps('quantity')} min={1} clampBehavior="none" allowDecimal={false} allowNegative={false} disabled={!token.trim()} />
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
