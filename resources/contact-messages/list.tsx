import { ResourceList } from '../../src/components/resource';
import { contactMessagesResource } from './index';

export const ContactMessageList = () => <ResourceList decl={contactMessagesResource} />;
