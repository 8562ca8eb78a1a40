import { ResourceList } from '../../src/components/resource';
import { jobsResource } from './index';

export const JobList = () => <ResourceList decl={jobsResource} />;
