import { ResourceForm } from '../../src/components/resource';
import { plansResource } from './index';

export const PlanCreate = () => <ResourceForm decl={plansResource} action="create" />;
