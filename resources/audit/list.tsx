import { ResourceList } from '../../src/components/resource';
import { auditResource } from './index';

export const AuditList = () => <ResourceList decl={auditResource} />;
