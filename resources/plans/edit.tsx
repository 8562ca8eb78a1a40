import { ResourceForm } from '../../src/components/resource';
import { plansResource } from './index';

export const PlanEdit = () => <ResourceForm decl={plansResource} action="edit" />;
