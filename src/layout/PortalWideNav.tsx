import type { ComponentProps } from 'react';
import { Menu } from 'antd';
import { UserMenu } from './UserMenu';

/** The customer portal's navigation from lg up: the entries in one row, then who is signed in and Log out. */
export function PortalWideNav({
  selected,
  items,
}: {
  selected: string[];
  items: ComponentProps<typeof Menu>['items'];
}) {
  return (
    <>
      <Menu
        mode="horizontal"
        selectedKeys={selected}
        items={items}
        style={{ flex: 1, minWidth: 0, borderBottom: 'none' }}
        data-testid="portal-menu"
      />
      <UserMenu />
    </>
  );
}
