import { ResourceList } from '../../src/components/resource';
import { gatewaysResource } from './index';

export const GatewayList = () => <ResourceList decl={gatewaysResource} />;
