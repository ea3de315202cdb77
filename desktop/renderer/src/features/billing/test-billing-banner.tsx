import { Alert } from '@mantine/core';

export function TestBillingBanner() {
  return (
    <Alert color="yellow" variant="filled" title="Built-in test billing: no money moves" data-testid="test-billing-banner">
      This is the operator&apos;s built-in test billing of this Cairn, not a real payment page. Choose how the payment ends; the subscription follows
      exactly as it would with a real provider.
    </Alert>
  );
}
