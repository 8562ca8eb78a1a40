import { ResourceList } from '../../src/components/resource';
import { apiTokensResource } from './index';

export const ApiTokenList = () => <ResourceList decl={apiTokensResource} />;
