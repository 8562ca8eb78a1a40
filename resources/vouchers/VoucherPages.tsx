import { useLocation, useParams } from 'react-router';
import { BatchList } from './BatchList';
import { BatchShow } from './BatchShow';
import { CreateBatch } from './CreateBatch';

/**
 * The voucher screens behind one loader (resource.ts shares it among list, create and show): the shell, which
 * every customer downloads too, then carries one page loader for them instead of three.
 */
export function VoucherPages() {
  const { id } = useParams();
  const { pathname } = useLocation();
  if (id) return <BatchShow />;
  if (pathname.replace(/\/+$/, '').endsWith('/create')) return <CreateBatch />;
  return <BatchList />;
}
