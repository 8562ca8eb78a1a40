import type { ReactNode } from 'react';
import type { IResourceItem } from '@refinedev/core';
import {
  ApiOutlined,
  AppstoreOutlined,
  AuditOutlined,
  ScheduleOutlined,
  BarChartOutlined,
  CloudDownloadOutlined,
  CloudServerOutlined,
  CreditCardOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DollarOutlined,
  FileTextOutlined,
  FileSyncOutlined,
  KeyOutlined,
  LineChartOutlined,
  MailOutlined,
  MonitorOutlined,
  SettingOutlined,
  TeamOutlined,
  ToolOutlined,
  UserOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import { t } from '../src/i18n';
import { MENU } from './menu';

const ICONS: Record<string, ReactNode> = {
  dashboard: <DashboardOutlined />,
  subscriptions: <FileSyncOutlined />,
  usage: <LineChartOutlined />,
  tickets: <CustomerServiceOutlined />,
  'tickets-shared': <TeamOutlined />,
  users: <UserOutlined />,
  'contact-messages': <MailOutlined />,
  billing: <DollarOutlined />,
  plans: <AppstoreOutlined />,
  'payment-gateways': <CreditCardOutlined />,
  invoices: <FileTextOutlined />,
  network: <WifiOutlined />,
  'router-devices': <CloudServerOutlined />,
  'router-usage': <BarChartOutlined />,
  'router-interfaces': <ApiOutlined />,
  'router-config': <SettingOutlined />,
  'router-backup': <DatabaseOutlined />,
  devices: <CloudServerOutlined />,
  installations: <ToolOutlined />,
  'api-tokens': <KeyOutlined />,
  backups: <CloudDownloadOutlined />,
  audit: <AuditOutlined />,
  jobs: <ScheduleOutlined />,
  system: <MonitorOutlined />,
  settings: <SettingOutlined />,
  profile: <UserOutlined />,
};

/** The one typed list of Refine resources, built from the menu data. */
export const resources: IResourceItem[] = MENU.map((m) => ({
  name: m.name,
  ...(m.route ? { list: m.route } : {}),
  ...(m.show ? { show: m.show } : {}),
  ...(m.create ? { create: m.create } : {}),
  ...(m.edit ? { edit: m.edit } : {}),
  meta: { label: t(m.labelKey), icon: ICONS[m.name], ...(m.parent ? { parent: m.parent } : {}), ...(m.portal ? { portal: true } : {}) },
}));
