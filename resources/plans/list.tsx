import { ResourceList } from '../../src/components/resource';
import { plansResource } from './index';

export const PlanList = () => <ResourceList decl={plansResource} />;
