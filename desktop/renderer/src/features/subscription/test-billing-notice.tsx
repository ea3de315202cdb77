import { Alert } from '@mantine/core';
import { type BillingInfoDto } from '../../../../../shared/billing';

export function TestBillingNotice({ info }: { info: Pick<BillingInfoDto, 'provider' | 'testBilling'> | undefined }) {
  if (!info) return null;
  if (info.testBilling) {
    return (
      <Alert color="yellow" variant="light" title="Built-in test billing" data-testid="test-billing-notice">
        This Cairn runs the operator&apos;s built-in test billing: checkout and payments are simulated and no money moves.
      </Alert>
    );
  }
  if (info.provider === 'none') {
    return (
      <Alert color="gray" variant="light" title="No billing on this Cairn">
        Plans cannot be bought here. The operator changes plans on request.
      </Alert>
    );
  }
  return null;
}
