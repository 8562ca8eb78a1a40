import { ResourceShow } from '../../src/components/resource';
import { plansResource } from './index';

export const PlanShow = () => <ResourceShow decl={plansResource} />;
