import { UserOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

/** Everybody's own profile and password. */
export const profileResource = defineResource({
  name: 'profile',
  titleKey: 'menu.profile',
  menu: { order: 180, portal: true, labelKey: 'menu.profile', icon: UserOutlined },
  pages: { list: () => import('../../src/pages/profile/ProfilePage').then((m) => m.ProfilePage) },
});
