import { PageLayout } from '../../components/page-layout';
import { WithSelectedWorkspace } from '../workspaces/index';
import { SUBSCRIPTION } from '../subscription/index';
import { OrderForm } from './order-form';

export function PayAsYouGoOrderPage() {
  return (
    <PageLayout title="Pay as you go" breadcrumbs={[SUBSCRIPTION, { label: 'Pay as you go' }]}>
      <WithSelectedWorkspace missing="Create a workspace to order requests for it.">
        {(workspace) => <OrderForm workspace={workspace} orderPath={(id) => `/dashboard/subscription/ppu/order/${id}`} />}
      </WithSelectedWorkspace>
    </PageLayout>
  );
}
