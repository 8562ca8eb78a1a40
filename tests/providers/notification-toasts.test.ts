import { describe, expect, it, vi } from 'vitest';
import { act, render, waitFor } from '@testing-library/react';
import { createElement } from 'react';
import { App } from 'antd';
import {
  createNotificationProvider,
  notificationProvider,
  toastArgs,
  useNotificationProvider,
} from '../../providers/notification-provider';

describe('toasts: top right, success 3 s green, error 4 s red (spec §8, §9)', () => {
  it('shows success toasts for 3 s at the top right in green', () => {
    const args = toastArgs({ type: 'success', message: 'Plan created successfully', key: 'k' });
    expect(args).toMatchObject({
      type: 'success',
      message: 'Plan created successfully',
      duration: 3,
      placement: 'topRight',
      key: 'k',
    });
    expect(String(args.style?.background)).toBe('#f6ffed');
  });

  it('shows error toasts for 4 s at the top right in red, with the specific text as the message', () => {
    const args = toastArgs({
      type: 'error',
      message: 'Error (status code: 500)',
      description: 'Failed to fetch plans',
    });
    expect(args).toMatchObject({ type: 'error', message: 'Failed to fetch plans', duration: 4, placement: 'topRight' });
    expect(args.description).toBeUndefined();
    expect(String(args.style?.background)).toBe('#fff2f0');
    expect(toastArgs({ type: 'error', message: 'Network error' })).toMatchObject({
      message: 'Network error',
      duration: 4,
    });
  });

  it('supports progress: counts down the undo window and Undo cancels the mutation', () => {
    const api = { open: vi.fn(), destroy: vi.fn() };
    const cancelMutation = vi.fn();
    const args = toastArgs(
      { type: 'progress', key: 'undo-1', message: 'Deleting', undoableTimeout: 5, cancelMutation },
      api,
    );
    expect(args).toMatchObject({ duration: 5, showProgress: true, placement: 'topRight' });
    const button = args.actions as { props: { onClick: () => void } };
    button.props.onClick();
    expect(cancelMutation).toHaveBeenCalledTimes(1);
    expect(api.destroy).toHaveBeenCalledWith('undo-1');
  });

  it('opens and closes through the given antd notification instance', () => {
    const api = { open: vi.fn(), destroy: vi.fn() };
    const provider = createNotificationProvider(api);
    provider.open({ type: 'success', message: 'Saved', key: 's' });
    provider.close('s');
    expect(api.open).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'Saved', duration: 3, placement: 'topRight' }),
    );
    expect(api.destroy).toHaveBeenCalledWith('s');
  });

  it('renders a real antd toast at the top right through the hook Refine calls inside antd <App>', async () => {
    let provider: ReturnType<typeof useNotificationProvider> | undefined;
    // biome-ignore lint/correctness/noComponentHookFactories: a probe rendered once, which hands the hook's value to this test
    function Probe() {
      provider = useNotificationProvider();
      return null;
    }
    const view = render(createElement(App, null, createElement(Probe)));
    expect(notificationProvider).toBe(useNotificationProvider);
    act(() => provider!.open({ type: 'error', key: 'real', message: 'Error', description: 'Failed to fetch users' }));
    await waitFor(() => {
      const container = document.querySelector('.ant-notification-topRight');
      expect(container?.textContent ?? '').toContain('Failed to fetch users');
    });
    act(() => provider!.close('real'));
    // The toast leaves with an animation React finishes later: unmount and let React settle, so no work of this test
    // is left to run once the test environment is torn down.
    act(() => view.unmount());
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
  });
});
