import { useParams } from 'react-router-dom';
import { PageLayout } from '../../components/page-layout';
import { WORKSPACES } from '../workspaces/index';
import { OrderById } from './order-detail';

export function WorkspaceOrderDetailPage() {
  const { id = '', orderId = '' } = useParams();
  return (
    <PageLayout title={`Order ${orderId}`} breadcrumbs={[WORKSPACES, { label: 'Workspace', to: `/dashboard/workspaces/${id}` }, { label: 'Order' }]}>
      <OrderById id={Number(orderId)} />
    </PageLayout>
  );
}
