/** The audit trail as a CSV file: GET /audit?format=csv with the list's filters, through the authorised client. */
import type { CrudFilter } from '@refinedev/core';
import dayjs from 'dayjs';
import { filtersToQuery, resourceApi } from '../../providers/data-provider';
import { httpClient } from '../../providers/http-client';
import { saveBlob } from '../../src/components/saveBlob';
import { t } from '../../src/i18n';

export async function downloadAuditCsv(filters: CrudFilter[]): Promise<void> {
  const api = resourceApi('audit');
  const res = await httpClient.get<Blob>(`/${api.path}`, {
    // The same query the list sends (from/to, action, …), so the file holds what the screen filters to.
    params: { ...filtersToQuery(filters, api.ranges), format: 'csv' },
    responseType: 'blob',
    fallbackMessage: t('audit.errors.csv'),
  });
  saveBlob(res.data, `audit-trail-${dayjs().format('YYYY-MM-DD')}.csv`);
}
