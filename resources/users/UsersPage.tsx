import { useState } from 'react';
import { App, Button, Form, Input, Select, Space } from 'antd';
import { DownloadOutlined, PlusOutlined } from '@ant-design/icons';
import { List, getDefaultFilter, useTable } from '@refinedev/antd';
import { stringifyTableParams, type BaseRecord, type CrudFilter } from '@refinedev/core';
import { useNavigate, useParams } from 'react-router';
import { assignableRoles } from '../../contract/schemas/user';
import { useAuthState } from '../../providers/auth-store';
import { isRole } from '../../contract/roles';
import { FoldingFilters, ResponsiveTable, fieldColumns } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { downloadText, useCompanies, useUsersCsvExport } from './api';
import { ROLE_OPTIONS, USER_STATUS_OPTIONS, USERS_PATH, userDetailPath, usersResource as decl } from './resource';
import { UserDrawer } from './UserDetail';
import { UserFormModal } from './UserForm';
import { HeaderTitle } from '../../src/components/Text';
import { useAllowed } from '../../src/components/resource/useAllowed';

interface FilterValues {
  search?: string;
  role?: string;
  status?: string;
  company?: string;
}

/** The filters of spec §3 as the API's query keys (the data provider drops empty ones). */
export function toFilters(values: FilterValues): CrudFilter[] {
  return [
    { field: 'search', operator: 'contains', value: values.search?.trim() || undefined },
    { field: 'role', operator: 'eq', value: values.role || undefined },
    { field: 'status', operator: 'eq', value: values.status || undefined },
    { field: 'company', operator: 'eq', value: values.company || undefined },
  ];
}

/**
 * /dashboard/users and /dashboard/user/{id}: one screen (spec §2). The list (server paging, filters in the
 * URL) stays; the id route opens the user's drawer over it, keeping the list's query string both ways.
 */
export function UsersPage() {
  const { id } = useParams<{ id?: string }>();
  const navigate = useNavigate();
  const { notification } = App.useApp();
  const me = useAuthState((s) => s.user);
  const actor = isRole(me?.role) ? me!.role : null;
  const [creating, setCreating] = useState(false);
  const mayCreate = useAllowed('users', 'create');
  const [exporting, setExporting] = useState<string | null>(null);
  const companies = useCompanies();
  const exportCsv = useUsersCsvExport();

  const { tableProps, filters, setFilters, currentPage, pageSize } = useTable({
    resource: decl.name,
    syncWithLocation: true,
    pagination: { mode: 'server', pageSize: 20 },
    sorters: { mode: 'off' },
  });

  // The drawer's route keeps the list's page and filters in its query string. Built from the table's state, not
  // from the location of the last render: the location catches up with a filter change one (transition) render
  // later, and a row clicked in between would carry the filters from before the change.
  const currentSearch = () =>
    `?${stringifyTableParams({ pagination: { currentPage, pageSize }, sorters: [], filters })}`;

  const [form] = Form.useForm<FilterValues>();
  const initialValues: FilterValues = {
    search: getDefaultFilter('search', filters, 'contains'),
    role: getDefaultFilter('role', filters, 'eq'),
    status: getDefaultFilter('status', filters, 'eq'),
    company: getDefaultFilter('company', filters, 'eq'),
  };
  const apply = (values: FilterValues) => setFilters(toFilters(values), 'replace');

  const runExport = async () => {
    setExporting(t('users.export.progress', { done: 0, total: '…' }));
    try {
      const { csv, count } = await exportCsv(toFilters(form.getFieldsValue()), (done, total) =>
        setExporting(t('users.export.progress', { done, total })),
      );
      downloadText(csv, `users-${new Date().toISOString().slice(0, 10)}.csv`);
      notification.success({ message: t('users.export.done', { count }), duration: 3 });
    } catch (error) {
      notification.error({ message: (error as { message?: string })?.message || t('errors.users.list'), duration: 4 });
    } finally {
      setExporting(null);
    }
  };

  const columns = fieldColumns(decl.fields);

  return (
    <List
      title={<HeaderTitle>{t(decl.titleKey)}</HeaderTitle>}
      resource={decl.name}
      canCreate={false}
      headerButtons={
        <Space wrap>
          <Button icon={<DownloadOutlined />} onClick={runExport} loading={!!exporting}>
            {exporting ?? t('users.actions.export')}
          </Button>
          {mayCreate && actor && assignableRoles(actor).length > 0 && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              {t('users.actions.create')}
            </Button>
          )}
        </Space>
      }
    >
      <FoldingFilters
        form={form}
        name="user-filters"
        initialValues={initialValues}
        // The search box waits for Enter; the selects apply at once.
        onValuesChange={(changed, all) => {
          if (!('search' in changed)) apply(all);
        }}
        onFinish={apply}
        visible={[
          {
            name: 'search',
            label: t('users.filters.search'),
            control: (
              <Input.Search
                allowClear
                placeholder={t('users.filters.search')}
                aria-label={t('users.filters.search')}
                onSearch={() => form.submit()}
                style={{ minWidth: 300 }}
              />
            ),
          },
        ]}
        folded={[
          {
            name: 'role',
            label: t('users.filters.role'),
            control: (
              <Select
                allowClear
                style={{ minWidth: 150 }}
                placeholder={t('users.filters.role')}
                aria-label={t('users.filters.role')}
                options={ROLE_OPTIONS.map((o) => ({ value: o.value, label: t(o.labelKey) }))}
              />
            ),
          },
          {
            name: 'status',
            label: t('users.filters.status'),
            control: (
              <Select
                allowClear
                style={{ minWidth: 140 }}
                placeholder={t('users.filters.status')}
                aria-label={t('users.filters.status')}
                options={USER_STATUS_OPTIONS.map((o) => ({ value: o.value, label: t(o.labelKey) }))}
              />
            ),
          },
          {
            name: 'company',
            label: t('users.filters.company'),
            control: (
              <Select
                allowClear
                showSearch
                style={{ minWidth: 180 }}
                placeholder={t('users.filters.company')}
                aria-label={t('users.filters.company')}
                options={companies.map((c) => ({ value: c, label: c }))}
              />
            ),
          },
        ]}
      />
      <ResponsiveTable<BaseRecord>
        {...tableProps}
        rowKey="id"
        size="middle"
        columns={columns}
        onOpen={(record) => navigate(`${userDetailPath(String(record.id))}${currentSearch()}`)}
        pagination={tableProps.pagination ? { ...tableProps.pagination, showSizeChanger: true } : false}
      />
      {id && (
        <UserDrawer
          id={id}
          actor={actor}
          actorId={me?.id}
          onClose={() => navigate(`${USERS_PATH}${currentSearch()}`)}
        />
      )}
      {creating && (
        <UserFormModal
          actor={actor}
          actorId={me?.id}
          onClose={() => setCreating(false)}
          onSaved={(u) => navigate(`${userDetailPath(u.id)}${currentSearch()}`)}
        />
      )}
    </List>
  );
}
