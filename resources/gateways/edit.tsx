import { ResourceForm } from '../../src/components/resource';
import { gatewaysResource } from './index';

export const GatewayEdit = () => <ResourceForm decl={gatewaysResource} action="edit" />;
