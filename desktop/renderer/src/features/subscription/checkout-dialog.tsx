import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { countryOptions, isCountryCode } from '../../../../../shared/countries';
import { checkoutSchema, taxIdTypeFor, type CheckoutInput } from '../../../../../shared/billing';
import { formatEur } from '../../../../../shared/pricing';
import { errorMessage } from '../../api/client';
import { ModalDialog } from '../../components/modal-dialog';
import { billingQueries, useCheckout } from './queries';

export interface CheckoutItem {
  /** What is bought, e.g. "HOBBY plan, billed every month". */
  label: string;
  priceId: string;
  amount: number;
  mode: 'subscription' | 'payment';
  onBehalfWorkspaceId?: number;
  successCallbackPath?: string;
  cancelCallbackPath?: string;
}

/**
 * Before checkout: the customer's country and, where the country has one, a tax id of its type,
 * checked for shape here and on the server, then passed to the provider. Sends the browser on to
 * the provider's checkout page (Stripe's, or Cairn's built-in test checkout).
 */
export function CheckoutDialog({ item, onClose }: { item: CheckoutItem | null; onClose: () => void }) {
  const [country, setCountry] = useState('');
  const [taxId, setTaxId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const checkout = useCheckout();
  const options = useMemo(() => countryOptions(typeof navigator === 'undefined' ? 'en' : navigator.languages), []);
  // The country (and tax id) given at the last purchase is offered again.
  const customer = useQuery({ ...billingQueries.customer(false), enabled: item !== null });
  const [remembered, setRemembered] = useState(false);
  useEffect(() => {
    if (remembered || !customer.data) return;
    setRemembered(true);
    if (customer.data.country && isCountryCode(customer.data.country)) {
      setCountry((c) => c || customer.data!.country!);
      if (customer.data.tax_id) setTaxId((t) => t || customer.data!.tax_id!.value);
    }
  }, [customer.data, remembered]);
  const taxType = country ? taxIdTypeFor(country) : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!item) return;
    const input: CheckoutInput = {
      priceId: item.priceId,
      mode: item.mode,
      ...(item.onBehalfWorkspaceId ? { onBehalfWorkspaceId: item.onBehalfWorkspaceId } : {}),
      ...(item.successCallbackPath ? { successCallbackPath: item.successCallbackPath } : {}),
      ...(item.cancelCallbackPath ? { cancelCallbackPath: item.cancelCallbackPath } : {}),
      ...(country ? { country } : {}),
      ...(taxType && taxId.trim() ? { taxId } : {}),
    };
    const parsed = checkoutSchema.safeParse(input);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the form.');
      return;
    }
    setError(null);
    checkout.mutate(input, {
      onSuccess: ({ url }) => window.location.assign(url),
      onError: (err) => setError(errorMessage(err, 'The checkout could not be started.')),
    });
  };

  return (
    <ModalDialog opened={item !== null} onClose={onClose} title="Checkout">
      {item && (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Text>
              {item.label}: <strong>{formatEur(item.amount)}</strong>
            </Text>
            <NativeSelect
              label="Country"
              description="Where your business or you are based, for the invoice and its tax."
              value={country}
              onChange={(e) => {
                setCountry(e.currentTarget.value);
                setTaxId('');
                setError(null);
              }}
              data={[{ value: '', label: 'Choose a country' }, ...options]}
            />
            {taxType && (
              <TextInput
                label={`Tax id (${taxType.type}, optional)`}
                placeholder={taxType.example}
                value={taxId}
                onChange={(e) => {
                  setTaxId(e.currentTarget.value);
                  setError(null);
                }}
              />
            )}
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Close
              </Button>
              <Button type="submit" loading={checkout.isPending}>
                Continue to checkout
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </ModalDialog>
  );
}
