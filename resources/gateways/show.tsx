import { ResourceShow } from '../../src/components/resource';
import { gatewaysResource } from './index';

export const GatewayShow = () => <ResourceShow decl={gatewaysResource} />;
