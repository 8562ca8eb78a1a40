import { ResourceForm } from '../../src/components/resource';
import { gatewaysResource } from './index';

export const GatewayCreate = () => <ResourceForm decl={gatewaysResource} action="create" />;
