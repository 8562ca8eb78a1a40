import { ResourceShow } from '../../src/components/resource';
import { auditResource } from './index';

export const AuditShow = () => <ResourceShow decl={auditResource} />;
