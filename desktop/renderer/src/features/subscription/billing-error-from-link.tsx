import { Alert } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';

/** A redirect from a link target (billing portal, log download) that could not go on says why here. */
export function BillingErrorFromLink() {
  const [params] = useSearchParams();
  const message = params.get('billing_error');
  if (!message) return null;
  return (
    <Alert color="red" role="alert" title="That did not work">
      {message}
    </Alert>
  );
}
