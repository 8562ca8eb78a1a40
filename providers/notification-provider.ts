/**
 * Refine's notification provider on antd's notification API (spec §1, §8, §9): toasts at the top right,
 * success 3 s in green, error 4 s in red, anything else 3 s; "progress" (undoable mutations) counts down with
 * an Undo button.
 *
 * Refine titles its error toasts generically ("Error (status code: 500)") and puts the useful text, our
 * spec §8 message, in the description; an error toast with a description therefore shows that text alone.
 */
import { createElement, useMemo, type CSSProperties } from 'react';
import { App, Button, notification as staticNotification } from 'antd';
import type { ArgsProps, NotificationInstance } from 'antd/es/notification/interface';
import type { NotificationProvider, OpenNotificationParams } from '@refinedev/core';
import { translate } from '../src/i18n';

export const TOAST_PLACEMENT = 'topRight' as const;
/** Seconds, as antd counts them. */
export const TOAST_DURATION = { default: 3, success: 3, error: 4 } as const;

export const TOAST_STYLE: Record<'success' | 'error', CSSProperties> = {
  success: { background: '#f6ffed', border: '1px solid #b7eb8f', borderLeft: '4px solid #52c41a' },
  error: { background: '#fff2f0', border: '1px solid #ffccc7', borderLeft: '4px solid #ff4d4f' },
};

type Api = Pick<NotificationInstance, 'open' | 'destroy'>;

/** antd arguments for one Refine notification (pure, so tests can read durations and styles). */
export function toastArgs(params: OpenNotificationParams, api?: Api): ArgsProps & { type?: ArgsProps['type'] } {
  const { key, message, description, type } = params;
  const base = { key, placement: TOAST_PLACEMENT };
  if (type === 'success') {
    return {
      ...base,
      type: 'success',
      message,
      description,
      duration: TOAST_DURATION.success,
      style: TOAST_STYLE.success,
    };
  }
  if (type === 'error') {
    const shown = description ? { message: description } : { message };
    return {
      ...base,
      type: 'error',
      ...shown,
      duration: TOAST_DURATION.error,
      style: TOAST_STYLE.error,
      role: 'alert',
    };
  }
  // progress: the mutation waits undoableTimeout seconds, during which Undo cancels it.
  const seconds = params.undoableTimeout ?? TOAST_DURATION.default;
  const undo = () => {
    params.cancelMutation?.();
    if (key !== undefined) api?.destroy(key);
  };
  return {
    ...base,
    type: 'info',
    message,
    description,
    duration: seconds,
    showProgress: true,
    pauseOnHover: false,
    actions: params.cancelMutation
      ? createElement(Button, { size: 'small', onClick: undo }, translate('buttons.undo', undefined, 'Undo'))
      : undefined,
  };
}

/** A provider over one antd notification instance (App.useApp().notification, the static API, or a fake). */
export function createNotificationProvider(api: Api = staticNotification): NotificationProvider {
  return {
    open: (params) => api.open(toastArgs(params, api)),
    close: (key) => api.destroy(key),
  };
}

/**
 * The provider as a hook on the notification instance of antd's <App> (themed, and rendered by React 19;
 * antd 5's static API cannot render under React 19 without antd's unstableSetRender). Outside <App> it falls
 * back to the static API.
 */
export function useNotificationProvider(): NotificationProvider {
  const { notification } = App.useApp();
  const api: Api = notification && 'open' in notification ? notification : staticNotification;
  return useMemo(() => createNotificationProvider(api), [api]);
}

/**
 * What to pass to <Refine notificationProvider={...}> inside antd's <App>: Refine accepts a hook here and calls it
 * while rendering.
 * @alias useNotificationProvider
 */
export const notificationProvider: () => NotificationProvider = useNotificationProvider;
