import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { countryOptions, isCountryCode } from '../../../../../shared/countries';
import { checkoutBuyerSchema, taxIdTypeFor, type CheckoutInput } from '../../../../../shared/billing';
import { formatEur } from '../../../../../shared/pricing';
import { errorMessage } from '../../api/client';
import { ModalDialog } from '../../components/modal-dialog';
import { useZodForm } from '../../components/zod-form';
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
  const { form, onSubmit } = useZodForm(checkoutBuyerSchema, { country: '', taxId: '' });
  const [error, setError] = useState<string | null>(null);
  const checkout = useCheckout();
  const options = useMemo(() => countryOptions(typeof navigator === 'undefined' ? 'en' : navigator.languages), []);
  // The country (and tax id) given at the last purchase is offered again.
  const customer = useQuery({ ...billingQueries.customer(false), enabled: item !== null });
  const [remembered, setRemembered] = useState(false);
  const { setFieldValue, getValues } = form;
  useEffect(() => {
    if (remembered || !customer.data) return;
    setRemembered(true);
    const { country, tax_id } = customer.data;
    if (country && isCountryCode(country) && !getValues().country) {
      setFieldValue('country', country);
      if (tax_id && !getValues().taxId) setFieldValue('taxId', tax_id.value);
    }
  }, [customer.data, remembered, setFieldValue, getValues]);
  const country = form.values.country ?? '';
  const taxType = country ? taxIdTypeFor(country) : null;

  const submit = onSubmit((buyer) => {
    if (!item) return;
    setError(null);
    const input: CheckoutInput = {
      priceId: item.priceId,
      mode: item.mode,
      ...(item.onBehalfWorkspaceId ? { onBehalfWorkspaceId: item.onBehalfWorkspaceId } : {}),
      ...(item.successCallbackPath ? { successCallbackPath: item.successCallbackPath } : {}),
      ...(item.cancelCallbackPath ? { cancelCallbackPath: item.cancelCallbackPath } : {}),
      ...(buyer.country ? { country: buyer.country } : {}),
      ...(taxType && buyer.taxId?.trim() ? { taxId: buyer.taxId } : {}),
    };
    checkout.mutate(input, {
      onSuccess: ({ url }) => window.location.assign(url),
      onError: (err) => setError(errorMessage(err, 'The checkout could not be started.')),
    });
  });

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
              {...form.getInputProps('country')}
              onChange={(e) => {
                // A tax id belongs to its country: a new country starts it afresh.
                form.setFieldValue('country', e.currentTarget.value);
                form.setFieldValue('taxId', '');
                setError(null);
              }}
              data={[{ value: '', label: 'Choose a country' }, ...options]}
            />
            {taxType && (
              <TextInput
                label={`Tax id (${taxType.type}, optional)`}
                placeholder={taxType.example}
                {...form.getInputProps('taxId')}
                onChange={(e) => {
                  form.setFieldValue('taxId', e.currentTarget.value);
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
