import { useParams } from 'react-router-dom';
import { PageLayout } from '../../components/page-layout';
import { SUBSCRIPTION } from '../subscription/index';
import { HISTORY } from './crumbs';
import { OrderById } from './order-detail';

export function PayAsYouGoOrderDetailPage() {
  const { id = '' } = useParams();
  return (
    <PageLayout title={`Order ${id}`} breadcrumbs={[SUBSCRIPTION, HISTORY, { label: 'Order' }]}>
      <OrderById id={Number(id)} />
    </PageLayout>
  );
}
